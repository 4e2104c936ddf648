# bench.gp - the table of `make bench` as a bar chart: GFLOP/s per shape,
# one bar each for C, NumPy and PyTorch (tests/bench/bench.py calls it).
# Set on the command line (gnuplot -e "..." tests/bench/bench.gp):
#   data      bench.tsv: a header row, then one row per shape (columns below)
#   out       the file to write
#   term      'svg' or 'png'
#   subtitle  the run: date, CFLAGS, ...
if (!exists("term")) term = 'svg'
if (!exists("subtitle")) subtitle = ''
if (term eq 'svg') {
    set terminal svg size 900,520 noenhanced font 'DejaVu Sans,13' background rgb 'white'
} else {
    if (term ne 'png') { print "bench.gp: term must be 'svg' or 'png', got '".term."'"; exit status 1 }
    set terminal pngcairo size 900,520 noenhanced font 'DejaVu Sans,11' background rgb 'white'
}
set output out

# bench.tsv's columns, by number (bench.py's TSV_COLUMNS)
c_name = 2; c_T = 3; c_d = 4; c_h = 5; c_gf_c = 10; c_gf_np = 11; c_gf_torch = 12

set datafile separator "\t"
set title "The causal multi-head layer, one forward pass, float64: GFLOP/s (higher is faster)\n".subtitle
set ylabel "GFLOP/s"
set xlabel "shape (T, d_model, n_heads)"
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.85 border rgb '#404040'
set boxwidth 1
set yrange [0:*]
set offsets 0, 0, graph 0.12, 0
set grid ytics linecolor rgb '#d0d0d0' linewidth 1 dashtype solid
set bmargin 7
set xlabel offset 0,-0.8
set key below horizontal maxrows 1 samplen 2
set border 3
set xtics nomirror scale 0
set ytics nomirror

tic(n) = (n eq '-' ? '' : n."\n").sprintf("(%d, %d, %d)", column(c_T), column(c_d), column(c_h))
bar(col) = sprintf("%.2f", column(col))

plot data using c_gf_c:xtic(tic(strcol(c_name))) skip 1 \
          title 'C (mha_forward_causal)' linecolor rgb '#2060a0', \
     ''   using c_gf_np skip 1 title 'NumPy' linecolor rgb '#e08020', \
     ''   using c_gf_torch skip 1 title 'PyTorch nn.MultiheadAttention' linecolor rgb '#40a040', \
     ''   using ($0 - 0.25):c_gf_c:(bar(c_gf_c)) skip 1 with labels offset 0,0.7 notitle, \
     ''   using ($0):c_gf_np:(bar(c_gf_np)) skip 1 with labels offset 0,0.7 notitle, \
     ''   using ($0 + 0.25):c_gf_torch:(bar(c_gf_torch)) skip 1 with labels offset 0,0.7 notitle
