# mask-after.gp - chapter 04's argument 1: mask before the softmax, not
# after. Row 1 of head 0 of chapter 03's worked example, scaled scores
# (0, 1, 1)/sqrt 2, key 2 hidden: the weights of keys 0, 1, 2 as grouped
# bars, masked before the softmax (dark blue), masked after it (orange),
# and masked after it with the future score 3/sqrt 2 (pale blue): style.gp's
# col_dark, col_mid and col_light, 3:1 apart in greyscale, bordered. Over
# each group the row's sum, and for a key set to 0 after the softmax,
# dashed, the weight it had (the share of the row the future took).
# Data: mask-after (index 0: group key weight cut; index 1: group sum f).
# Printed at width=\textwidth (book/*/04-masking.nw).
fig_fraction = 1.0
H = 7.6
eval figure(fig_fraction, H)
W = fig_fraction * textwidth_cm
sx(cm) = cm / W
sy(cm) = cm / H
# the plot area, in cm as printed: ylabel and tick labels on the left; the
# key and the sums above; key tick labels and the groups' names below
PL = 1.9
PR = 0.3
PB = 2.1
PT = 0.75
set lmargin at screen sx(PL)
set rmargin at screen 1 - sx(PR)
set bmargin at screen sy(PB)
set tmargin at screen 1 - sy(PT)

colour(g) = (g == 0) ? col_dark : (g == 1) ? col_mid : col_light
bar(g, j) = g + (j - 1) * 0.32      # x of key j's bar in group g
BW = 0.3

set xrange [-0.6:2.6]
set yrange [0:1.2]
set ytics 0,0.25,1 scale 0.5
# the axis name at a fixed place: the terminals estimate text sizes
# differently, and text pushed off the SVG's canvas is cut
set label 1 tr("weight a_{1j}", "peso a_{1j}") rotate by 90 center \
    at screen sx(0.4), screen sy(PB + (H - PB - PT) / 2)
set grid ytics linecolor rgb '#dddddd'
set border 3
set tics nomirror
# each bar's key under it
set xtics () scale 0 offset 0,0.25
do for [g = 0:2] {
    do for [j = 0:2] { set xtics add (sprintf("key %d", j) bar(g, j)) }
}
# each group's name, two lines, under its keys: the order of the two
# steps, and the row's scores s_1j
array name_en[3] = ["mask → softmax", "softmax → mask", "softmax → mask"]
array name_es[3] = ["máscara → softmax", "softmax → máscara", "softmax → máscara"]
array future[3] = [1, 1, 3]
do for [g = 0:2] {
    set label 10 + g sprintf("%s\ns_{1j} = (0, 1, %d)/√2", tr(name_en[g + 1], name_es[g + 1]), \
                            future[g + 1]) \
        at first g, screen sy(PB - 0.95) center
}
# each group's sum over it, from the data
do for [g = 0:2] {
    stats data index 1 every ::g::g using 2 nooutput prefix "G"
    set label 20 + g sprintf("%s = %.4f", tr("sum", "suma"), G_max) \
        at first g, first 1.1 center
}
set key at screen 1 - sx(PR), screen 1 - sy(0.35) right Left reverse samplen 1.5 noautotitle

set style fill solid 1.0 border linecolor rgb col_edge
plot for [g = 0:2] data index 0 using (bar($1, $2)):($1 == g ? $3 : NaN):(BW) \
        with boxes linecolor rgb colour(g) notitle, \
     '' index 0 using (bar($1, $2)):4:(BW) with boxes fillstyle empty \
        dashtype 2 linewidth 1.5 linecolor rgb '#606060' \
        title tr("key 2's weight before it was set to 0", \
                 "peso de la key 2 antes de ponerlo a 0"), \
     '' index 0 using (bar($1, $2)):3:($3 == 0 ? "0" : sprintf("%.4f", $3)) \
        with labels offset 0,0.6 notitle, \
     '' index 0 using (bar($1, $2)):($4 - 0.08):(sprintf("%.4f", $4)) \
        with labels textcolor rgb '#606060' notitle
