# fast-tiles.gp - chapter 05's causal mask in tiles: the 8 x 8 scores,
# query i down and key j across, cut into 2 x 2 tiles by thick lines.
# Tiles above the diagonal are empty and hatched (never computed); tiles
# on it are light, their hidden cell (j > i) crossed (masked after the
# product); tiles below it are dark (fully visible). A sample tile of each
# kind, drawn as in the grid, names the three to the right of the grid.
# Light and dark are 4:1 apart in luminance; the hatching and the crosses
# tell the kinds apart without colour.
# Data: fast-tiles (index 0: i j kind of each cell; index 1: I J kind i0 j0
# of each tile).
# Printed at width=0.72\textwidth (book/*/05-attention-at-speed.nw).
fig_fraction = 0.72
W = fig_fraction * textwidth_cm
C = 0.55                    # a cell, in cm as printed
PL = 1.25                   # left of the grid: ylabel, tick labels
PR = 0.1
PB = 1.2                    # below the grid: tick labels, xlabel
PT = 0.2
H = PB + 8 * C + PT
eval figure(fig_fraction, H)
sx(cm) = cm / W
sy(cm) = cm / H
set lmargin at screen sx(PL)
set rmargin at screen 1 - sx(PR)
set bmargin at screen sy(PB)
set tmargin at screen 1 - sy(PT)
# one unit of x or y is one cell, in both directions: the grid's cells are
# at 0..7, the samples' at 9, 10, their names from 10.9 on
set xrange [-0.5:-0.5 + (W - PL - PR) / C]
set yrange [7.5:-0.5]       # query 0 on top
unset border
set xtics 0,1,7 scale 0 nomirror
set ytics 0,1,7 scale 0 nomirror
# the axis names at fixed places: the terminals estimate text sizes
# differently, and text pushed off the SVG's canvas is cut
set label 1 tr("key j", "key j") center at first 3.5, screen sy(0.25)
set label 2 tr("query i", "query i") rotate by 90 center \
    at screen sx(0.3), first 3.5
unset key

tile_light = col_light      # on the diagonal: computed whole, then masked
tile_dark = '#2171b5'       # below it: fully visible (L 0.16, 4.2:1 to light)
cell_line = '#808080'       # cells inside a light tile; the hatching
hatch = cell_line
tile_line = 'black'         # the tiles' edges; the crosses
light(k) = (k == 1 || k == 2) ? 0.5 : NaN
dark(k) = (k == 3) ? 0.5 : NaN
skipped(k) = (k == 0) ? 1 : NaN
crossed(k) = (k == 1) ? 1 : NaN
# hatch segment s of a skipped cell (as in mask-heads.gp): its start from
# the cell's centre and its run (hd, -hd); segment 1 is the cell's diagonal
hx(s) = (s == 0) ? -0.5 : (s == 1) ? -0.5 : 0.0
hy(s) = (s == 0) ? 0.0 : 0.5
hd(s) = (s == 1) ? 1.0 : 0.5
# the two strokes of a cross, corner to corner, inside the cell
X = 0.3
cy(s) = (s == 0) ? -X : X

# the samples, in the data's two formats: one tile of each kind, at rows
# 0-1 (never computed), 3-4 (on the diagonal: the upper right cell hidden)
# and 6-7 (fully visible), keys 9-10
$samples << EOD
0 9 0
0 10 0
1 9 0
1 10 0
3 9 2
3 10 1
4 9 2
4 10 2
6 9 3
6 10 3
7 9 3
7 10 3


0 0 0 0 9
0 0 1 3 9
0 0 2 6 9
EOD
set label 10 tr("never computed", "nunca se calcula") left at first 10.9, first 0.5
set label 11 tr("masked after\nthe product", "enmascarada\ntras el producto") left \
    at first 10.9, first 3.5 - 0.3
set label 12 tr("fully visible", "totalmente visible") left at first 10.9, first 6.5

# the grid and the samples, drawn alike: the data file, then the datablock
# (a word list: the data's path has no space, figures/figures.mk's BUILD)
sources = data . ' $samples'
plot for [src in sources] src index 0 using 2:1:(light($3)):(0.5) with boxxyerror \
         fillstyle solid 1.0 border rgb cell_line linecolor rgb tile_light linewidth 0.5, \
     for [src in sources] src index 0 using 2:1:(dark($3)):(0.5) with boxxyerror \
         fillstyle solid 1.0 border rgb 'white' linecolor rgb tile_dark linewidth 0.75, \
     for [src in sources] for [s = 0:2] src index 0 \
         using ($2 + hx(s)):($1 + hy(s)):(skipped($3) * hd(s)):(-hd(s)) \
         with vectors nohead linecolor rgb hatch linewidth 0.75, \
     for [src in sources] for [s = 0:1] src index 0 \
         using ($2 - X):($1 + cy(s)):(crossed($3) * 2 * X):(-2 * cy(s)) \
         with vectors nohead linecolor rgb tile_line linewidth 1.5, \
     for [src in sources] src index 1 using ($5 + 0.5):($4 + 0.5):(1):(1) with boxxyerror \
         fillstyle empty border rgb tile_line linecolor rgb tile_line linewidth 2.5
