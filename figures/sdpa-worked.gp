# sdpa-worked.gp - row 0 of chapter 01's worked example: its two weights
# without the scale and with 1/sqrt(d_k), d_k = 2, as grouped bars.
# Data: sdpa-worked (key j; weight a_0j unscaled; scaled).
# Printed at width=0.8\textwidth (book/*/02-scaled-dot-product.nw).
eval figure(0.8, 6.4)
# margins in character heights, so that SVG and PDF text both find room
set bmargin 3.2
set tmargin 1
set rmargin 5
unscaled = col_orange         # 5.5:1 from col_dark in greyscale
scaled = col_dark

set xrange [-0.7:1.7]
set xtics 0,1,1 scale 0
set xlabel tr("key position j", "posición de la key j")
set yrange [0:1.02]
set ytics 0,0.25,1 scale 0.5
set ylabel tr("weight a_{0j}", "peso a_{0j}")
set grid ytics linecolor rgb '#dddddd'
# the uniform row 1/2, dashed, named on the right axis
set y2range [0:1.02]
set y2tics ("1/2" 0.5) scale 0.5 textcolor rgb '#606060'
set key top left Left reverse samplen 1.5 spacing 1.1
set style fill solid 1.0 noborder
set boxwidth 0.34
plot 0.5 with lines dashtype 2 linecolor rgb '#808080' notitle, \
     data using ($1 - 0.18):2 with boxes linecolor rgb unscaled \
        title tr("without scale", "sin escala"), \
     '' using ($1 + 0.18):3 with boxes linecolor rgb scaled \
        title tr("with scale 1/√d_k", "con escala 1/√d_k"), \
     '' using ($1 - 0.18):2:(sprintf("%.4f", $2)) with labels offset 0,0.7 notitle, \
     '' using ($1 + 0.18):3:(sprintf("%.4f", $3)) with labels offset 0,0.7 notitle
