# mha-heads-drawn.gp - the weights of the four heads of MultiHeadAttention
# (64, 4, 1) at its initial weights, nothing planted, on "I work , you
# work , he ___": 2 x 2 heatmaps on the colour scale 0..1 of the planted
# heads (mha-heads-planted), each with its largest distance from 1/8.
# Data: mha-heads-drawn (index h = head h). Layout: mha-heads.gp.
# Printed at width=0.95\textwidth (book/*/03-multi-head.nw).
fig_fraction = 0.95
array dev[4]                # each head's largest |a - 1/8|, T = 8
do for [h = 0:3] {
    stats data index h matrix using (abs($3 - 0.125)) nooutput prefix "D"
    dev[h + 1] = D_max
}
head_title(h) = sprintf("%s %d: %s", tr("head", "cabeza"), h, tr("initial weights", "pesos iniciales"))
head_note(h) = sprintf("max |a_{ij} − 1/8|\n= %.2g", dev[h + 1])
load ARG0[1:strstrt(ARG0, "mha-heads-drawn.gp") - 1] . "mha-heads.gp"
