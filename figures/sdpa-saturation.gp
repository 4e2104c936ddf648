# sdpa-saturation.gp - the largest of 16 softmax weights for random q, k
# against the head width d_k (log axis), without the scale and with
# 1/sqrt(d_k): mean over the seeds, band from the 10th to the 90th percentile.
# In greyscale the two series differ by their marks (discs, squares) and
# their bands by the direction of their hatching (the key's band is
# cross-hatched); the lines are col_orange and col_dark, 5.5:1 apart.
# Data: sdpa-saturation (d_k; unscaled mean p10 p90; scaled mean p10 p90).
# Printed at width=0.8\textwidth (book/*/02-scaled-dot-product.nw).
eval figure(0.8, 7.2)
# margins in character heights, so that SVG and PDF text both find room
set bmargin 3.2
set tmargin 3.2
set rmargin 5
unscaled = col_orange
scaled = col_dark

set logscale x 2
set xrange [0.8:1280]
set xtics ("1" 1, "4" 4, "16" 16, "64" 64, "256" 256, "1024" 1024) scale 0.5
set mxtics default
set xlabel tr("head width d_k", "ancho de la cabeza d_k")
set yrange [0:1.02]
set ytics 0,0.25,1 scale 0.5
set ylabel tr("largest weight max_{j} a_{j}", "peso máximo max_{j} a_{j}")
set grid xtics ytics linecolor rgb '#dddddd'
# the uniform row's largest weight 1/16, dashed, named on the right axis
set y2range [0:1.02]
set y2tics ("1/16" 0.0625) scale 0.5 textcolor rgb '#606060'
# two rows at a fixed place: the SVG terminal measures text wider and would
# otherwise stack the three entries over the plot
set key at screen 0.5, screen 0.99 center top vertical maxrows 2 Left reverse \
    samplen 1.5 width -1
plot data using 1:3:4 with filledcurves fillstyle pattern 4 noborder \
        linecolor rgb unscaled notitle, \
     '' using 1:6:7 with filledcurves fillstyle pattern 5 noborder \
        linecolor rgb scaled notitle, \
     1.0 / 16 with lines dashtype 2 linecolor rgb col_ref notitle, \
     '' using 1:2 with linespoints linewidth 1.5 pointtype 7 pointsize 0.6 \
        linecolor rgb unscaled title tr("without scale", "sin escala"), \
     '' using 1:5 with linespoints linewidth 1.5 pointtype 5 pointsize 0.6 \
        linecolor rgb scaled title tr("with scale 1/√d_k", "con escala 1/√d_k"), \
     keyentry with filledcurves fillstyle pattern 1 noborder linecolor rgb col_ref \
        title tr("10th–90th percentile", "percentiles 10 a 90")
