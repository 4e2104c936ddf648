# mha-heads.gp - what figures mha-heads-planted.gp and mha-heads-drawn.gp
# share (loaded by them, not a figure of its own): the weights of the four
# heads of MultiHeadAttention(64, 4, 1) on chapter 03's eight tokens, as
# four 8 x 8 heatmaps in a 2 x 2 grid, rows = queries, columns = keys, the
# tokens as tick labels, on one colour scale 0..1 with its colour box.
# Set before loading:
#   fig_fraction   the printed width, \includegraphics[width=F\textwidth]
#   head_title(h)  the title of head h's panel (0..3)
#   head_note(h)   text drawn in the middle of head h's map, or "" for none
# Every length below is in cm as printed; the four maps are squares.
S  = 4.45                   # side of one map
L0 = 2.1                    # left of the maps on the left: ylabel, tick labels
GX = 1.75                   # between the two columns: the right maps' tick labels
B0 = 2.05                   # below the lower maps: tick labels, xlabel
GY = 2.15                   # between the rows: tick labels, then a title
TOP = 0.75                  # above the upper maps: their titles
W = fig_fraction * textwidth_cm
H = B0 + 2 * S + GY + TOP
eval figure(fig_fraction, H)
sx(cm) = cm / W             # cm from the left/bottom edge -> screen fraction
sy(cm) = cm / H

tokens = 'I work , you work , he ___'
n = words(tokens)           # T = 8
set xrange [-0.5:n - 0.5]
set yrange [n - 0.5:-0.5]   # query 0 on top
# tick labels "token position" ("work 4"), the keys' turned to read upwards;
# noenhanced: '___' is not three subscripts. The positions are those the
# text names (a_76); and two words, also in "I 0" and ", 2", are how
# check-figures.py tells a turned label and measures its size across it.
tick(t) = sprintf("%s %d", word(tokens, t + 1), t)
set xtics () scale 0 rotate by 90 right offset 0,0.2 noenhanced
set ytics () scale 0 noenhanced
do for [t = 0:n - 1] {
    set xtics add (tick(t) t)
    set ytics add (tick(t) t)
}
set cbrange [0:1]
set palette defined (0 '#f7fbff', 0.5 '#6baed6', 1 '#08306b')
set cbtics 0,0.25,1 scale 0.5
unset key

set multiplot
do for [h = 0:3] {
    col = h % 2
    row = h / 2              # row 0 on top
    x0 = L0 + col * (S + GX)
    y0 = B0 + (1 - row) * (S + GY)
    set lmargin at screen sx(x0)
    set rmargin at screen sx(x0 + S)
    set bmargin at screen sy(y0)
    set tmargin at screen sy(y0 + S)
    # the title, the axis names and the colour box's name at fixed places:
    # the terminals estimate text sizes differently, and text pushed off the
    # SVG's canvas is cut or dropped
    set label 4 head_title(h) at screen sx(x0 + S / 2), screen sy(y0 + S + 0.35) center
    unset label 2
    unset label 3
    if (col == 0) {
        set label 2 tr("query i", "query i") at screen sx(0.3), screen sy(y0 + S / 2) \
            rotate by 90 center
    }
    if (row == 1) {
        set label 3 tr("key j", "key j") at screen sx(x0 + S / 2), screen sy(0.3) center norotate
    }
    if (h == 3) {
        set colorbox user origin screen sx(L0 + 2 * S + GX + 0.45), screen sy(B0) \
            size screen sx(0.4), screen sy(2 * S + GY)
        set label 5 tr("weight a_{ij}", "peso a_{ij}") rotate by 90 center \
            at screen sx(L0 + 2 * S + GX + 2.05), screen sy(B0 + S + GY / 2)
    } else { unset colorbox }
    unset label 1
    if (head_note(h) ne "") {
        set label 1 head_note(h) at (n - 1) / 2.0, (n - 1) / 2.0 center front
    }
    plot data index h matrix with image pixels notitle
}
unset multiplot
