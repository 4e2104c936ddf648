# bench.gp - the table of `make bench` as two bar charts, one above the other
# (bench/bench.py calls it): per shape, one bar each for C (the
# readable loops) and C+OpenBLAS, row at a time (solid) and tiled
# (hatched), NumPy and PyTorch,
#   above: GFLOP/s, with the roof (OpenBLAS's dgemm alone at the layer's
#          largest product) drawn across each group;
#   below: the time of each over the best peer's (the faster of NumPy and
#          PyTorch), with lines at 1 and at 1/1.3 (target (a), of
#          C+OpenBLAS tiled).
# Set on the command line (gnuplot -e "..." bench/bench.gp):
#   data      bench.tsv: a header row (bench.py's TSV_COLUMNS; read by name)
#   out       the file to write
#   term      'svg' or 'png'
#   subtitle  the run: date, CFLAGS, ...
if (!exists("term")) term = 'svg'
if (!exists("subtitle")) subtitle = ''
if (term eq 'svg') {
    set terminal svg size 1200,900 noenhanced font 'DejaVu Sans,13' background rgb 'white'
} else {
    if (term ne 'png') { print "bench.gp: term must be 'svg' or 'png', got '".term."'"; exit status 1 }
    set terminal pngcairo size 1200,900 noenhanced font 'DejaVu Sans,11' background rgb 'white'
}
set output out

set datafile separator "\t"
set datafile columnheaders
stats data using "T" nooutput           # STATS_records: the shapes

# the six bars of a group: 6 boxes and a gap of 1, so 1/7 apart
n_impl = 6
at(i) = $0 + (i - (n_impl - 1) / 2.0) / (n_impl + 1.0)
tic(n) = (n eq '-' ? '' : n."\n").sprintf("(%d, %d, %d)", column("T"), column("d_model"), column("n_heads"))
bar(c) = sprintf("%.2f", column(c))
c1 = '#2060a0'; c2 = '#a03060'; c3 = '#e08020'; c4 = '#40a040'

set style data histogram
set style histogram clustered gap 1
set style fill solid 0.85 border rgb '#404040'
hatch1 = 'fill pattern 4 border rgb "#404040"'
hatch2 = 'fill pattern 5 border rgb "#404040"'
set boxwidth 1
set yrange [0:*]
set grid ytics linecolor rgb '#d0d0d0' linewidth 1 dashtype solid
set border 3
set xtics nomirror scale 0
set ytics nomirror
set key below horizontal maxcols 7 samplen 2.5 width 0
set xrange [-0.6:STATS_records - 0.4]    # both panels: the same groups

set multiplot title "The causal multi-head layer, one forward pass, float64, one thread\n".subtitle

# ---- above: GFLOP/s, and the roof ----------------------------------------------------
set size 1, 0.55
set origin 0, 0.42
set tmargin 4
set bmargin 6.5
set title "GFLOP/s (higher is faster); the dashed line over each group: OpenBLAS's dgemm alone at X W_QKV"
set ylabel "GFLOP/s"
set xlabel ""
set offsets 0, 0, graph 0.12, 0
plot data using "gflops_C":xtic(tic(strcol("name"))) title 'C (readable loops)' linecolor rgb c1, \
     ''   using "gflops_C_OpenBLAS" title 'C+OpenBLAS' linecolor rgb c2, \
     ''   using "gflops_C_tiled" title 'C tiled' linecolor rgb c1 @hatch1, \
     ''   using "gflops_C_OpenBLAS_tiled" title 'C+OpenBLAS tiled' linecolor rgb c2 @hatch2, \
     ''   using "gflops_NumPy" title 'NumPy' linecolor rgb c3, \
     ''   using "gflops_PyTorch" title 'PyTorch' linecolor rgb c4, \
     ''   using ($0 - 0.45):"roof_gflops":(0.9):(0) with vectors nohead linewidth 2 \
          dashtype 2 linecolor rgb '#202020' title 'dgemm roof', \
     ''   using ($0 + 0.45):"roof_gflops":(sprintf("roof %.1f", column("roof_gflops"))) \
          with labels right offset 0,0.6 font ',9' notitle, \
     ''   using (at(0)):"gflops_C":(bar("gflops_C")) with labels offset 0,0.6 font ',9' notitle, \
     ''   using (at(1)):"gflops_C_OpenBLAS":(bar("gflops_C_OpenBLAS")) with labels offset 0,0.6 font ',9' notitle, \
     ''   using (at(2)):"gflops_C_tiled":(bar("gflops_C_tiled")) with labels offset 0,0.6 font ',9' notitle, \
     ''   using (at(3)):"gflops_C_OpenBLAS_tiled":(bar("gflops_C_OpenBLAS_tiled")) with labels offset 0,0.6 font ',9' notitle, \
     ''   using (at(4)):"gflops_NumPy":(bar("gflops_NumPy")) with labels offset 0,0.6 font ',9' notitle, \
     ''   using (at(5)):"gflops_PyTorch":(bar("gflops_PyTorch")) with labels offset 0,0.6 font ',9' notitle

# ---- below: time over the best peer's ---------------------------------------------------
set size 1, 0.42
set origin 0, 0
set tmargin 2.5
set bmargin 4.5
set title "time over the best peer's (below 1: faster than both NumPy and PyTorch)"
set ylabel "time / best peer's time"
set offsets 0, 0, graph 0.1, 0
set key below horizontal maxrows 1 samplen 3
plot data using "ratio_C":xtic(tic(strcol("name"))) notitle linecolor rgb c1, \
     ''   using "ratio_C_OpenBLAS" notitle linecolor rgb c2, \
     ''   using "ratio_C_tiled" notitle linecolor rgb c1 @hatch1, \
     ''   using "ratio_C_OpenBLAS_tiled" notitle linecolor rgb c2 @hatch2, \
     ''   using "ratio_NumPy" notitle linecolor rgb c3, \
     ''   using "ratio_PyTorch" notitle linecolor rgb c4, \
     1 with lines linewidth 1.5 linecolor rgb '#202020' title 'the best peer (1)', \
     1 / 1.3 with lines linewidth 1.5 dashtype 2 linecolor rgb c2 \
          title 'target (a): C+OpenBLAS tiled 1.3x as fast (1/1.3)', \
     ''   using (at(0)):"ratio_C":(bar("ratio_C")) with labels offset 0,0.6 font ',9' notitle, \
     ''   using (at(1)):"ratio_C_OpenBLAS":(bar("ratio_C_OpenBLAS")) with labels offset 0,0.6 font ',9' notitle, \
     ''   using (at(2)):"ratio_C_tiled":(bar("ratio_C_tiled")) with labels offset 0,0.6 font ',9' notitle, \
     ''   using (at(3)):"ratio_C_OpenBLAS_tiled":(bar("ratio_C_OpenBLAS_tiled")) with labels offset 0,0.6 font ',9' notitle, \
     ''   using (at(4)):"ratio_NumPy":(bar("ratio_NumPy")) with labels offset 0,0.6 font ',9' notitle, \
     ''   using (at(5)):"ratio_PyTorch":(bar("ratio_PyTorch")) with labels offset 0,0.6 font ',9' notitle

unset multiplot
