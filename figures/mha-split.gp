# mha-split.gp - how Q (T, d_model) is cut into heads (n_heads, T, d_k), on
# chapter 03's worked example (T = 3, d_model = 4, two heads of d_k = 2).
# Top: the split; head h takes column block h of every token. Bottom: a
# reshape without the transpose; "head h" is the h-th run of T d_k numbers
# in memory (whole rows), so its rows mix tokens and blocks. A cell's
# colour is the head its column belongs to (col_light, col_mid: 3:1 apart
# in greyscale); a row label is the token the row came from, black, or
# orange with a cross where it is not the token of that row of a head.
# Data: mha-split (index 0 Q: t c value block; index 1 split, index 2
# reshape: h t c value src_t src_c).
# Printed at width=1.0\textwidth (book/*/03-multi-head.nw).
# Drawn in cell units (one cell = u cm), y downwards.
fig_fraction = 1.0
stats data index 0 using 1:2 nooutput prefix "Q"
T = int(Q_max_x) + 1
D = int(Q_max_y) + 1
stats data index 1 using 1:3 nooutput prefix "S"
NH = int(S_max_x) + 1
DK = int(S_max_y) + 1

# x: token labels | Q | arrow | labels | head 0 | labels | head 1
LAB = 2.0                           # room for "token 0" left of Q
LABH = 2.6                          # and for "✗ token 0" left of a head
xQ = 0
xA0 = D + 0.4                       # the arrow
xA1 = D + 2.4
xH(h) = xA1 + LABH + h * (DK + LABH)  # left of head h's grid
xmin = -LAB
xmax = xH(NH - 1) + DK + 0.2
# y, each of the two panels: title, column heads, grid, name below
ROW = 6.1                           # height of one panel
yT(p) = p * ROW + 0.45              # the panel's title
yC(p) = p * ROW + 1.35              # "head 0 | head 1" over Q's columns
yG(p) = p * ROW + 1.85              # top of the grids
yN(p) = yG(p) + T + 0.55            # names under the grids
ymin = 0
ymax = 2 * ROW - 0.25
u = fig_fraction * textwidth_cm / (xmax - xmin)
eval figure(fig_fraction, u * (ymax - ymin))

set lmargin at screen 0
set rmargin at screen 1
set bmargin at screen 0
set tmargin at screen 1
set xrange [xmin:xmax]
set yrange [ymax:ymin]
unset border
unset tics
unset key

rgb(c) = int("0x" . c[2:])                    # style.gp's '#rrggbb' as a number
fill(b) = rgb((b == 0) ? col_light : col_mid)  # head 0 pale blue, head 1 orange
ink(b) = (b == 0) ? col_dark : col_mid         # the heads' names over Q
grey = rgb(col_edge)
wrong = rgb(col_mid)                           # a row from another token, crossed
head = tr("head", "cabeza")
quoted(s) = tr("“", "«") . s . tr("”", "»")

# titles
set label tr("split: head h takes columns h d_k … (h+1) d_k − 1 of every token", \
             "corte: la cabeza h toma las columnas h d_k … (h+1) d_k − 1 de cada token") \
    at xmin + 0.1, yT(0) left
set label tr("reshape without transpose: “head h” is run h of T d_k numbers in memory", \
             "reshape sin transponer: la «cabeza h» es el tramo h de T d_k números en memoria") \
    at xmin + 0.1, yT(1) left
do for [p = 0:1] {
    do for [b = 0:NH - 1] {        # column blocks over Q, in their head's colour
        set label sprintf("%s %d", head, b) at xQ + b * DK + DK / 2.0, yC(p) center \
            textcolor rgb ink(b)
    }
    # the arrow from Q to the stack, its name above, the stack's shape below
    set arrow from xA0, yG(p) + T / 2.0 to xA1, yG(p) + T / 2.0 \
        head filled size 0.35,25 linewidth 2 linecolor rgb grey
    set label (p == 0 ? tr("split", "corte") : "reshape") at (xA0 + xA1) / 2, yG(p) + T / 2.0 - 0.45 center
    set label sprintf("(%d, %d, %d)", NH, T, DK) at (xA0 + xA1) / 2, yG(p) + T / 2.0 + 0.55 center
    do for [h = 0:NH - 1] {
        name = sprintf("%s %d", head, h)
        set label (p == 0 ? name : quoted(name)) at xH(h) + DK / 2.0, yN(p) center
    }
}
set label sprintf("Q (T = %d, d_{model} = %d)", T, D) at xQ + D / 2.0, yN(0) center
set label sprintf(tr("Q's memory: %d runs of %d", "memoria de Q: %d tramos de %d"), NH, T * DK) \
    at xQ + D / 2.0, yN(1) center

# the reshape's runs of T d_k numbers, outlined on Q (bottom panel)
run = T * DK
do for [r = 1:NH - 1] {
    m = r * run                     # the first number of run r
    rr = m / D
    cc = m % D
    y1 = yG(1) + rr
    if (cc == 0) {
        set arrow from xQ, y1 to xQ + D, y1 nohead linewidth 4 front
    } else {
        set arrow from xQ, y1 + 1 to xQ + cc, y1 + 1 nohead linewidth 4 front
        set arrow from xQ + cc, y1 + 1 to xQ + cc, y1 nohead linewidth 4 front
        set arrow from xQ + cc, y1 to xQ + D, y1 nohead linewidth 4 front
    }
}
set arrow from xQ, yG(1) to xQ + D, yG(1) nohead linewidth 4 front
set arrow from xQ + D, yG(1) to xQ + D, yG(1) + T nohead linewidth 4 front
set arrow from xQ + D, yG(1) + T to xQ, yG(1) + T nohead linewidth 4 front
set arrow from xQ, yG(1) + T to xQ, yG(1) nohead linewidth 4 front

set style fill solid 1.0 border linecolor rgb grey
cell = 0.5
plot for [p = 0:1] data index 0 using (xQ + $2 + cell):(yG(p) + $1 + cell):(cell):(cell):(fill($4)) \
         with boxxyerror linecolor rgb variable, \
     for [p = 0:1] data index p + 1 using (xH($1) + $3 + cell):(yG(p) + $2 + cell):(cell):(cell):(fill(int($6) / DK)) \
         with boxxyerror linecolor rgb variable, \
     for [p = 0:1] data index 0 using (xQ + $2 + cell):(yG(p) + $1 + cell):(sprintf("%g", $3)) \
         with labels font big, \
     for [p = 0:1] data index p + 1 using (xH($1) + $3 + cell):(yG(p) + $2 + cell):(sprintf("%g", $4)) \
         with labels font big, \
     for [p = 0:1] data index 0 using (xQ - 0.2):(yG(p) + $1 + cell):($2 == 0 ? sprintf("token %d", $1) : "") \
         with labels right, \
     for [p = 0:1] data index p + 1 using (xH($1) - 0.2):(yG(p) + $2 + cell): \
         ($3 == 0 ? sprintf($5 == $2 ? "token %d" : "✗ token %d", $5) : ""): \
         ($5 == $2 ? 0 : wrong) \
         with labels right textcolor rgb variable
