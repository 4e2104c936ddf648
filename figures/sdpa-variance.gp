# sdpa-variance.gp - the measured variance of the score q k^T of random q, k
# against the head width d_k (log-log), against the line Var = d_k; and of
# the scaled score q k^T / sqrt(d_k), against the flat line at 1.
# The two theory lines are dashed, in colours 5.5:1 apart in greyscale;
# the measured points are discs (unscaled) and squares (scaled).
# Data: sdpa-variance (d_k; variance unscaled; variance scaled).
# Printed at width=0.8\textwidth (book/*/02-scaled-dot-product.nw).
eval figure(0.8, 7.2)
# margins in character heights, so that SVG and PDF text both find room
set bmargin 3.2
set tmargin 1
unscaled = col_orange
scaled = col_dark

set logscale xy 2
set xrange [0.8:1280]
set yrange [0.5:8192]            # room for the key above the line d_k
set xtics ("1" 1, "4" 4, "16" 16, "64" 64, "256" 256, "1024" 1024) scale 0.5
set ytics ("1" 1, "4" 4, "16" 16, "64" 64, "256" 256, "1024" 1024) scale 0.5
set mxtics default
set mytics default
set xlabel tr("head width d_k", "ancho de la cabeza d_k")
set ylabel tr("variance of the score", "varianza de la puntuación")
set grid xtics ytics linecolor rgb '#dddddd'
set key top left Left reverse samplen 2 spacing 1.1
set samples 2
plot x with lines linewidth 1.5 dashtype 2 linecolor rgb unscaled \
        title tr("d_k (theory)", "d_k (teoría)"), \
     data using 1:2 with points pointtype 7 pointsize 0.8 linecolor rgb col_mid \
        title tr("q k^T, measured", "q k^T, medida"), \
     1 with lines linewidth 1.5 dashtype 2 linecolor rgb scaled \
        title tr("1 (theory)", "1 (teoría)"), \
     data using 1:3 with points pointtype 5 pointsize 0.7 linecolor rgb scaled \
        title tr("q k^T / √d_k, measured", "q k^T / √d_k, medida")
