# mha-heads-planted.gp - the weights of the four heads planted by hand in
# MultiHeadAttention(64, 4, 1) on "I work , you work , he ___": previous
# token, same word, subject of the verb, nothing (1/8 everywhere); 2 x 2
# heatmaps, rows = queries, columns = keys, one colour scale 0..1.
# Data: mha-heads-planted (index h = head h). Layout: mha-heads.gp.
# Printed at width=0.95\textwidth (book/*/03-multi-head.nw).
fig_fraction = 0.95
array name_en[4] = ["previous token", "same word", "subject of the verb", "nothing planted"]
array name_es[4] = ["token anterior", "misma palabra", "sujeto del verbo", "nada plantado"]
head_title(h) = sprintf("%s %d: %s", tr("head", "cabeza"), h, tr(name_en[h + 1], name_es[h + 1]))
head_note(h) = ""
load ARG0[1:strstrt(ARG0, "mha-heads-planted.gp") - 1] . "mha-heads.gp"
