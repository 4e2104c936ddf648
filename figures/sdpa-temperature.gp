# sdpa-temperature.gp - one row of scaled scores (left) and its softmax at
# the temperatures tau = 0.25, 1, 4, 16 (right), coldest blue, hottest red.
# Data: sdpa-temperature (index 0 scores s_j; index 1 key j, then a_j per tau).
# Printed at width=0.95\textwidth (book/*/02-scaled-dot-product.nw).
eval figure(0.95, 6.8)
# margins in character heights, so that SVG and PDF text both find room
set bmargin 3.2
set tmargin 2
set multiplot
set xlabel tr("key position j", "posición de la key j")
set xrange [-0.6:7.6]
set xtics 0,1,7 scale 0

# left: the scores s_7j = q_7 k_j^T / sqrt(d_k)
set origin 0, 0
set size 0.37, 1
set title tr("scores of query 7", "puntuaciones de la query 7")
set ylabel tr("score s_{7j}", "puntuación s_{7j}") offset 1,0
set yrange [-1.5:2.75]
set ytics -1,1,2 scale 0.5
set grid ytics linecolor rgb '#dddddd'
set xzeroaxis linecolor rgb '#808080'
set style fill solid 0.9 noborder
set boxwidth 0.6
plot data index 0 using 1:2 with boxes linecolor rgb '#bdbdbd' notitle

# right: softmax(s / tau) for each tau
set origin 0.37, 0
set size 0.63, 1
set rmargin 4
set title tr("softmax(s_{7j} / τ) at temperature τ", "softmax(s_{7j} / τ) a temperatura τ")
set ylabel tr("weight a_{7j}", "peso a_{7j}") offset 1,0
set yrange [0:1.05]
set ytics 0,0.25,1 scale 0.5
unset xzeroaxis
# the uniform row 1/8, dashed, named on the right axis
set y2range [0:1.05]
set y2tics ("1/8" 0.125) scale 0.5 textcolor rgb '#606060'
set key top right Left reverse samplen 2 spacing 1.1
taus = "0.25 1 4 16"
tau_title(t) = "τ = " . word(taus, t)
colors = "#08306b #2171b5 #fd8d3c #cb181d"
points = "7 5 9 13"
plot for [t = 1:4] data index 1 using 1:(column(t + 1)) with linespoints \
       linewidth 1.5 pointtype int(word(points, t)) pointsize 0.7 \
       linecolor rgb word(colors, t) title tau_title(t), \
     1.0 / 8 with lines dashtype 2 linecolor rgb '#808080' notitle
unset multiplot
