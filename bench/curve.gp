# curve.gp - `make bench`'s time against T (bench/bench.py calls it): one
# forward pass of the causal layer at one width (curve.tsv: Mini-GPT's,
# d_model 64, 4 heads), in milliseconds against the sequence length T, both
# axes logarithmic; one line each for C and C+OpenBLAS row at a time
# (solid), C and C+OpenBLAS tiled (dashed), NumPy (dotted) and PyTorch
# (dash-dot), each with its own marker, so that the lines are told apart
# without colour.
# Set on the command line (gnuplot -e "..." bench/curve.gp):
#   data      curve.tsv: a header row (bench.py's TSV_COLUMNS; read by name)
#   out       the file to write
#   term      'svg' or 'png'
#   subtitle  the run: date, CFLAGS, ...
if (!exists("term")) term = 'svg'
if (!exists("subtitle")) subtitle = ''
if (term eq 'svg') {
    set terminal svg size 1000,700 noenhanced font 'DejaVu Sans,13' background rgb 'white'
} else {
    if (term ne 'png') { print "curve.gp: term must be 'svg' or 'png', got '".term."'"; exit status 1 }
    set terminal pngcairo size 1000,700 noenhanced font 'DejaVu Sans,11' background rgb 'white'
}
set output out

set datafile separator "\t"
set datafile columnheaders
stats data using "d_model" nooutput
d_model = int(STATS_min)
stats data using "n_heads" nooutput
n_heads = int(STATS_min)

set logscale x 2
set logscale y 10
set format y '%g'
set xtics nomirror
set ytics nomirror
set grid xtics ytics linecolor rgb '#d0d0d0' linewidth 1 dashtype solid
set border 3
set key top left box opaque samplen 4 spacing 1.2
set xlabel "T (tokens)"
set ylabel "time per forward (ms)"
set title sprintf("The causal multi-head layer against T at d_model %d, %d heads, float64, one thread\n", d_model, n_heads).subtitle
c1 = '#2060a0'; c2 = '#a03060'; c3 = '#e08020'; c4 = '#40a040'

plot data using "T":"ms_C":xtic(strcol("T")) title 'C (readable loops), row at a time' \
          with linespoints linewidth 2 dashtype 1 pointtype 7 pointsize 1.2 linecolor rgb c1, \
     ''   using "T":"ms_C_OpenBLAS" title 'C+OpenBLAS, row at a time' \
          with linespoints linewidth 2 dashtype 1 pointtype 5 pointsize 1.2 linecolor rgb c2, \
     ''   using "T":"ms_C_tiled" title 'C tiled' \
          with linespoints linewidth 2 dashtype 2 pointtype 6 pointsize 1.4 linecolor rgb c1, \
     ''   using "T":"ms_C_OpenBLAS_tiled" title 'C+OpenBLAS tiled' \
          with linespoints linewidth 2 dashtype 2 pointtype 4 pointsize 1.4 linecolor rgb c2, \
     ''   using "T":"ms_NumPy" title 'NumPy' \
          with linespoints linewidth 2 dashtype 3 pointtype 9 pointsize 1.4 linecolor rgb c3, \
     ''   using "T":"ms_PyTorch" title 'PyTorch' \
          with linespoints linewidth 2 dashtype 4 pointtype 2 pointsize 1.4 linecolor rgb c4
