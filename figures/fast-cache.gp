# fast-cache.gp - chapter 05's key/value cache of one layer at GPT-2
# small's width (d_model = 768, 12 heads, doubles) against the context
# length T, log-log: full heads (solid, circles), grouped-query attention
# with 4 key/value heads (dashed, squares), multi-query with 1 (dotted,
# triangles; a marker at every other T, 16, 64, ..., 4096); the three told
# apart in greyscale by their dashes and markers. At T = 1024 each line is
# labelled with its MiB, on the line just left of the marker.
# Data: fast-cache (T, MiB full, MiB 4 key/value heads, MiB 1).
# Printed at width=\textwidth (book/*/05-attention-at-speed.nw).
fig_fraction = 1.0
H = 8.0
eval figure(fig_fraction, H)
W = fig_fraction * textwidth_cm
sx(cm) = cm / W
sy(cm) = cm / H
# the plot area, in cm as printed: ylabel and tick labels on the left,
# tick labels and xlabel below
PL = 1.9
PR = 0.5
PB = 1.35
PT = 0.3
set lmargin at screen sx(PL)
set rmargin at screen 1 - sx(PR)
set bmargin at screen sy(PB)
set tmargin at screen 1 - sy(PT)

set logscale xy
set xtics () scale 0.5 nomirror
do for [p = 4:12] { set xtics add (sprintf("%d", 2**p) 2**p) }
set ytics ("0.01" 0.01, "0.1" 0.1, "1" 1, "10" 10, "100" 100) scale 0.5 nomirror
set mytics 10
set grid xtics ytics linecolor rgb '#dddddd'
set border 3
# the axis names at fixed places: the terminals estimate text sizes
# differently, and text pushed off the SVG's canvas is cut
set label 1 tr("context length T (tokens)", "longitud del contexto T (tokens)") center \
    at screen sx(PL + (W - PL - PR) / 2), screen sy(0.25)
set label 2 tr("cache memory per layer (MiB)", "memoria de la caché por capa (MiB)") \
    rotate by 90 center at screen sx(0.4), screen sy(PB + (H - PB - PT) / 2)
set key at screen sx(PL + 0.3), screen 1 - sy(PT + 0.1) left top Left reverse \
    samplen 4 spacing 1.2

# each series: colour, dash pattern, marker (filled circle, square,
# triangle); column of the data
array colour[3] = [col_dark, col_mid, '#3182bd']
array dash[3] = [1, 2, 3]
array marker[3] = [7, 5, 9]
array name_en[3] = ["full heads (12 key/value heads)", "GQA, 4 key/value heads", \
                    "MQA, 1 key/value head"]
array name_es[3] = ["cabezas completas (12 de keys y values)", \
                    "GQA, 4 cabezas de keys y values", "MQA, 1 cabeza de keys y values"]
# the MiB of each series at T = 1024, from the data, just left of its
# point, on a white patch that hides the line behind it: on the line it
# labels. The patch is a rectangle (a text box is drawn differently by
# svg), 1.45 cm by 0.45 cm as printed, converted to the axes' factors
XMIN = 16 / 1.25
XMAX = 4096 * 1.25
YMIN = 0.01
YMAX = 100
fx(cm) = (XMAX / XMIN) ** (cm / (W - PL - PR))   # cm across -> factor of T
fy(cm) = (YMAX / YMIN) ** (cm / (H - PB - PT))   # cm up -> factor of MiB
LX = 1024 / fx(0.3)                             # the labels' right end
do for [s = 1:3] {
    stats data using ($1 == 1024 ? column(s + 1) : NaN) nooutput prefix "P"
    set object 10 + s rectangle from first LX / fx(1.35), first P_max / fy(0.225) \
        to first LX * fx(0.1), first P_max * fy(0.225) front \
        fillstyle solid 1.0 noborder fillcolor rgb 'white'
    set label 10 + s sprintf("%g MiB", P_max) at first LX, first P_max right front
}
set xrange [XMIN:XMAX]
set yrange [YMIN:YMAX]
plot for [s = 1:3] data using 1:(column(s + 1)) with linespoints \
         linecolor rgb colour[s] dashtype dash[s] linewidth 2 \
         pointtype marker[s] pointsize 0.9 pointinterval 2 title tr(name_en[s], name_es[s])
