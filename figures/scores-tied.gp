# scores-tied.gp - the score matrix S = Q K^T with separate W_Q, W_K (left)
# and with tied W_Q = W_K (right, symmetric), on one colour scale.
# Data: scores-tied (index 0 separate, index 1 tied; row i = query).
# Printed at width=0.95\textwidth (book/*/01-qkv.nw).
eval figure(0.95, 7.2)
stats data index 0 matrix using 3 nooutput prefix "SEP"
stats data index 1 matrix using 3 nooutput prefix "TIED"
absmax(a, b) = abs(a) > abs(b) ? abs(a) : abs(b)
limit = ceil(absmax(absmax(SEP_min, SEP_max), absmax(TIED_min, TIED_max)))
n = int(sqrt(SEP_records)) # T, the number of tokens

set cbrange [-limit:limit]
# dark for negative scores, light for positive: the sign survives in greyscale
eval palette_signed
set xrange [-0.5:n - 0.5]
set yrange [n - 0.5:-0.5]
set xtics 0,1,n-1 scale 0
set ytics 0,1,n-1 scale 0
set size ratio -1
set xlabel tr("key position j", "posición de la key j")
set ylabel tr("query position i", "posición de la query i") offset 1,0

# margins in character heights, so that SVG and PDF text both find room
set bmargin 3.2
set tmargin 2
set multiplot
set origin 0, 0
set size 0.46, 1
unset colorbox
set title tr("separate W_{Q}, W_{K}: asymmetric", "W_{Q}, W_{K} separadas: asimétrica")
plot data index 0 matrix with image pixels notitle

set origin 0.43, 0
set size 0.44, 1
set colorbox user origin 0.88,0.2 size 0.025,0.62
set cbtics scale 0.5
set cblabel tr("score s_{ij}", "puntuación s_{ij}")
unset ylabel
set title tr("tied W_{Q} = W_{K}: symmetric", "W_{Q} = W_{K} atadas: simétrica")
plot data index 1 matrix with image pixels notitle
unset multiplot
