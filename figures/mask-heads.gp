# mask-heads.gp - chapter 04's causal mask of "I work , you work , he ___"
# and the four planted heads of MultiHeadAttention(64, 4, 1) through the
# causal layer: the mask, then heads 0 and 1 in the top row; heads 2 and 3,
# then the colour scale and the key to the hidden cells in the bottom row.
# Rows = queries, columns = keys, the tokens as tick labels and the colour
# scale 0..1 of mha-heads-planted; a hidden cell (B_ij = -inf in the mask,
# weight exactly 0 in a head) is grey and hatched, so the triangle the mask
# hides shows apart from visible cells of small weight.
# Data: mask-heads (index 0 the mask, 1 = hidden; index 1 + h head h).
# Printed at width=\textwidth (book/*/04-masking.nw).
fig_fraction = 1.0
# Every length below is in cm as printed; the maps are squares. Only the
# left column has the queries' tick labels (the rows line up); every map
# has the keys' below it, since the cells below heads 1 and 3 are not maps.
L0 = 2.1                    # left of the maps on the left: ylabel, tick labels
GX = 0.35                   # between the columns
R0 = 0.15                   # right of the maps on the right
TOP = 1.1                   # above a map: its title, two lines
XT = 1.45                   # below a map: its tick labels, turned
B0 = XT + 0.65              # below the lower maps: tick labels, xlabel
W = fig_fraction * textwidth_cm
S = (W - L0 - 2 * GX - R0) / 3
H = B0 + 2 * S + XT + 2 * TOP
eval figure(fig_fraction, H)
sx(cm) = cm / W             # cm from the left/bottom edge -> screen fraction
sy(cm) = cm / H
x0(col) = L0 + col * (S + GX)
y0(row) = B0 + (1 - row) * (S + XT + TOP)   # row 0 on top

tokens = 'I work , you work , he ___'
n = words(tokens)           # T = 8
set xrange [-0.5:n - 0.5]
set yrange [n - 0.5:-0.5]   # query 0 on top
# tick labels "token position" as in mha-heads.gp: two words, so that
# check-figures.py measures a turned label across it; noenhanced: '___'
tick(t) = sprintf("%s %d", word(tokens, t + 1), t)
set xtics () scale 0 rotate by 90 right offset 0,0.2 noenhanced
do for [t = 0:n - 1] { set xtics add (tick(t) t) }
# the queries' tick labels, set again for each map of the left column
ytick_list = ''
do for [t = 0:n - 1] {
    ytick_list = ytick_list . sprintf('%s"%s" %d', t ? ', ' : '', tick(t), t)
}
set_yticks = 'set ytics (' . ytick_list . ') scale 0 noenhanced'
set cbrange [0:1]
set palette defined (0 '#f7fbff', 0.5 '#6baed6', 1 '#08306b')
set cbtics 0,0.25,1 scale 0.5
unset key
unset colorbox

# a hidden cell: grey, hatched by lines x + y = c every half cell (three
# segments per cell, which join across cells into one hatch)
hidden_fill = '#d4d4d4'
hatch = '#737373'
is_hidden(v) = (v == 0) ? 1 : NaN          # a head: weight exactly 0
is_masked(v) = (v == 1) ? 1 : NaN          # the mask: 1 = hidden
hid(v) = (mask_panel) ? is_masked(v) : is_hidden(v)
# hatch segment k of a cell: its start (hx, hy) from the cell's centre, and
# its run (hd, -hd); segment 1 is the cell's diagonal, 0 and 2 the halves
hx(k) = (k == 0) ? -0.5 : (k == 1) ? -0.5 : 0.0
hy(k) = (k == 0) ? 0.0 : (k == 1) ? 0.5 : 0.5
hd(k) = (k == 1) ? 1.0 : 0.5

array name_en[4] = ["previous token", "same word", "subject of the verb", "average of the past"]
array name_es[4] = ["token anterior", "misma palabra", "sujeto del verbo", "media del pasado"]
title(p) = (p == 0) ? tr("causal mask B", "máscara causal B") \
         : sprintf("%s %d\n%s", tr("head", "cabeza"), p - 1, \
                   tr(name_en[p], name_es[p]))

set multiplot
do for [p = 0:4] {              # panel 0 the mask, panel 1 + h head h
    col = p % 3
    row = p / 3
    mask_panel = (p == 0)
    set lmargin at screen sx(x0(col))
    set rmargin at screen sx(x0(col) + S)
    set bmargin at screen sy(y0(row))
    set tmargin at screen sy(y0(row) + S)
    # titles, axis names and keys at fixed places: the terminals estimate
    # text sizes differently, and text pushed off the SVG's canvas is lost
    # (a title of two lines is placed by its first line)
    set label 4 title(p) at screen sx(x0(col) + S / 2), \
        screen sy(y0(row) + S + ((p == 0) ? 0.35 : 0.72)) center front
    unset label 2
    unset label 3
    if (col == 0) {
        set label 2 tr("query i", "query i") at screen sx(0.3), screen sy(y0(row) + S / 2) \
            rotate by 90 center
        eval set_yticks
    } else { unset ytics }
    if (row == 1) {
        set label 3 tr("key j", "key j") at screen sx(x0(col) + S / 2), screen sy(0.3) \
            center norotate
    }
    unset label 10
    unset label 11
    unset object 2
    if (mask_panel) {
        # the two triangles named inside the map, the hidden one on a patch
        # of grey without the hatch (a text box is drawn differently by svg)
        set label 10 tr("visible\nB_{ij} = 0", "visible\nB_{ij} = 0") at 1.5, 5.4 center front
        set label 11 tr("hidden\nB_{ij} = −∞", "oculta\nB_{ij} = −∞") at 5.2, 1.45 \
            center front
        set object 2 rectangle from 3.75, 0.75 to 6.65, 2.45 front \
            fillstyle solid 1.0 noborder fillcolor rgb hidden_fill
        plot data index 0 matrix using 1:2:(0.5):(0.5) with boxxyerror \
                 fillstyle solid 1.0 border rgb '#d9d9d9' linecolor rgb 'white', \
             data index 0 matrix using 1:2:(hid($3) * 0.5):(0.5) with boxxyerror \
                 fillstyle solid 1.0 noborder linecolor rgb hidden_fill, \
             for [k = 0:2] data index 0 matrix \
                 using ($1 + hx(k)):($2 + hy(k)):(hid($3) * hd(k)):(-hd(k)) \
                 with vectors nohead linecolor rgb hatch linewidth 0.75
    } else {
        if (p == 4) {
            # the colour scale, and the key to the hidden cells below it,
            # in the place of the missing sixth map
            set colorbox user origin screen sx(x0(2) + 0.3), screen sy(y0(1)) \
                size screen sx(0.4), screen sy(S)
            set label 5 tr("weight a_{ij}", "peso a_{ij}") rotate by 90 center \
                at screen sx(x0(2) + 2.0), screen sy(y0(1) + S / 2)
            # a hidden cell 0.45 cm wide, hatched as in the maps
            kx = x0(2) + 0.3
            ky = y0(1) - 1.05
            ks = 0.45
            set object 1 rectangle from screen sx(kx), screen sy(ky) \
                to screen sx(kx + ks), screen sy(ky + ks) \
                fillstyle solid 1.0 border rgb hatch fillcolor rgb hidden_fill behind
            do for [k = 0:2] {
                set arrow 20 + k from screen sx(kx + ks * (hx(k) + 0.5)), \
                    screen sy(ky + ks * (0.5 - hy(k))) \
                    rto screen sx(ks * hd(k)), screen sy(ks * hd(k)) \
                    nohead linecolor rgb hatch linewidth 0.75
            }
            set label 6 tr("hidden: a_{ij} = 0", "oculta: a_{ij} = 0") left \
                at screen sx(kx + ks + 0.25), screen sy(ky + ks / 2)
        }
        # each cell a box a little larger than the cell, so that no seam
        # shows between cells of one colour (as "with image pixels" can)
        plot data index p matrix using 1:2:(0.51):(0.51):3 with boxxyerror \
                 fillstyle solid 1.0 noborder linecolor palette, \
             '' index p matrix using 1:2:(hid($3) * 0.5):(0.5) with boxxyerror \
                 fillstyle solid 1.0 noborder linecolor rgb hidden_fill, \
             for [k = 0:2] '' index p matrix \
                 using ($1 + hx(k)):($2 + hy(k)):(hid($3) * hd(k)):(-hd(k)) \
                 with vectors nohead linecolor rgb hatch linewidth 0.75
    }
}
unset multiplot
