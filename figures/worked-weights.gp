# worked-weights.gp - chapter 01's worked example: the (2, 2) weight matrix
# softmax(Q K^T) as a heatmap with its values, and query row 0's scores
# beside its weights. Data: worked-weights (index 0 weights, index 1 row 0).
# Printed at width=0.9\textwidth (book/*/01-qkv.nw).
eval figure(0.9, 6.4)
# margins in character heights, so that SVG and PDF text both find room
set bmargin 3.2
set tmargin 2.2
set multiplot layout 1,2

# left: the weights, row i = query position (top to bottom), column j = key
set title tr("attention weights softmax(Q K^T)", "pesos de atención softmax(Q K^T)")
set xlabel tr("key position j", "posición de la key j")
set ylabel tr("query position i", "posición de la query i")
set xrange [-0.5:1.5]
set yrange [1.5:-0.5]
set xtics 0,1,1 scale 0
set ytics 0,1,1 scale 0
set cbrange [0:1]
eval palette_weights
unset colorbox
set size ratio -1
ink(w) = w > 0.5 ? 0xffffff : 0x000000      # white text on dark cells
plot data index 0 matrix with image pixels notitle, \
     '' index 0 matrix using 1:2:(sprintf("%.2f", $3)):(ink($3)) \
        with labels textcolor rgb variable font big notitle

# right: query row 0, scores s_0j (0, 1) and weights a_0j = softmax(0, 1),
# pale and dark bars (10:1 apart in greyscale), edged so the pale ones show
set size noratio
set title tr("query 0: scores → weights", "query 0: puntuaciones → pesos")
set xlabel tr("key position j", "posición de la key j")
unset ylabel
set xrange [-0.6:1.6]
set yrange [0:(term eq 'svg') ? 2.1 : 1.75]   # room for the key (SVG text sets wider lines)
set xtics 0,1,1 scale 0
set ytics 0,0.25,1 scale 0.5
set grid ytics linecolor rgb '#dddddd'
set key top left reverse Left samplen 1.5
set style fill solid 1.0 border rgb col_edge
set boxwidth 0.35
plot data index 1 using ($1 - 0.19):2 with boxes linecolor rgb col_light \
          title tr("score s_{0j}", "puntuación s_{0j}"), \
     '' index 1 using ($1 + 0.19):3 with boxes linecolor rgb col_dark \
          title tr("weight a_{0j}", "peso a_{0j}"), \
     '' index 1 using ($1 - 0.19):2:(sprintf("%.2f", $2)) with labels offset 0,0.7 notitle, \
     '' index 1 using ($1 + 0.19):3:(sprintf("%.2f", $3)) with labels offset 0,0.7 notitle
unset multiplot
