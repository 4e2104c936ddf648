# fast-curve.gp - chapter 05's layer against the sequence length T, as
# `make bench` measured it (bench/results/curve.tsv) at Mini-GPT's width:
# left, milliseconds per forward (log-log); right, the same times over
# NumPy's (log T, the ratio linear), with NumPy's own line at 1. Six
# series, told apart in greyscale by form: the library's readable build
# dark and its OpenBLAS build orange, row at a time solid with filled
# markers and in tiles dashed with open ones; NumPy dotted (triangles),
# PyTorch dash-dot (diamonds), both grey.
# Data: fast-curve (T, six ms, six ratios over NumPy).
# Printed at width=\textwidth (book/*/05-attention-at-speed.nw).
fig_fraction = 1.0
H = 9.0
eval figure(fig_fraction, H)
W = fig_fraction * textwidth_cm
sx(cm) = cm / W
sy(cm) = cm / H
# two plot areas side by side, in cm as printed; the key below both
PL = 1.6
GAP = 1.7
PR = 0.3
PB = 3.4
PT = 0.3
PW = (W - PL - GAP - PR) / 2
stats data using 1 nooutput prefix "TT"
XMIN = TT_min / 1.3
XMAX = TT_max * 1.3

array colour[6] = [col_dark, col_dark, col_mid, col_mid, col_ref, '#404040']
array dash[6] = [1, 2, 1, 2, 3, 4]
array marker[6] = [7, 6, 5, 4, 9, 13]
array name_en[6] = ["C, row at a time", "C, in tiles", "C+OpenBLAS, row at a time", \
                    "C+OpenBLAS, in tiles", "NumPy", "PyTorch"]
array name_es[6] = ["C, query a query", "C, en teselas", "C+OpenBLAS, query a query", \
                    "C+OpenBLAS, en teselas", "NumPy", "PyTorch"]

set multiplot
set logscale x 2
set xrange [XMIN:XMAX]
set xtics () scale 0.5 nomirror
do for [i = 1:TT_records] {
    stats data every ::i-1::i-1 using 1 nooutput prefix "P"
    set xtics add (sprintf("%d", P_min) P_min)
}
set grid xtics ytics linecolor rgb '#dddddd'
set border 3
set ytics scale 0.5 nomirror
set bmargin at screen sy(PB)
set tmargin at screen 1 - sy(PT)
# the axis names at fixed places: the terminals estimate text sizes
# differently, and text pushed off the SVG's canvas is cut
set label 1 tr("sequence length T (tokens)", "longitud de la secuencia T (tokens)") center \
    at screen sx(PL + PW / 2), screen sy(PB - 0.95)
set label 2 tr("ms per forward", "ms por pasada") rotate by 90 center \
    at screen sx(0.3), screen sy(PB + (H - PB - PT) / 2)
set lmargin at screen sx(PL)
set rmargin at screen sx(PL + PW)
set logscale y 10
set format y '%g'
set key at screen sx(PL - 1.2), screen sy(PB - 1.4) left top Left reverse \
    maxrows 3 width 2 samplen 4 spacing 1.15
plot for [s = 1:6] data using 1:(column(s + 1)) with linespoints \
         linecolor rgb colour[s] dashtype dash[s] linewidth 2 \
         pointtype marker[s] pointsize 0.8 title tr(name_en[s], name_es[s])

unset logscale y
unset label
set label 1 tr("sequence length T (tokens)", "longitud de la secuencia T (tokens)") center \
    at screen sx(PL + PW + GAP + PW / 2), screen sy(PB - 0.95)
set label 2 tr("time over NumPy's", "tiempo / el de NumPy") rotate by 90 center \
    at screen sx(PL + PW + GAP - 1.2), screen sy(PB + (H - PB - PT) / 2)
set lmargin at screen sx(PL + PW + GAP)
set rmargin at screen 1 - sx(PR)
set yrange [0:*]
set format y '%.1f'
unset key
plot for [s = 1:6] data using 1:(column(s + 7)) with linespoints \
         linecolor rgb colour[s] dashtype dash[s] linewidth 2 \
         pointtype marker[s] pointsize 0.8 notitle
unset multiplot
