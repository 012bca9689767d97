# plots/lab05_bits.gp -- Lab 05 figure: the whole sort against bits per pass
# (the split, then 1, 2, 4 and 8 bits with tiles) at n = 2^28, each bar
# stacked from its phases summed over the passes, and CUB's time as a line.
# From `lab05 passes`. Run by plots/render.sh. Variables as lab05_passes.gp.
if (!exists("plotdir")) plotdir = "plots"
load plotdir."/lab05-common.gp"
if (strlen(outfile) == 0) outfile = "lab05_bits.".fmt

names = "split bits1 bits2 4bit bits8"
labels = "\"1 (split)\" 1 2 4 8"
array T[4 * 5]                # T[4 * (v - 1) + k]: phase k of variant v, summed over passes
do for [i = 1:4 * 5] { T[i] = 0 }
slot(v) = sum [j = 1:5] (word(names, j) eq v ? j : 0)
cub = NaN
stats passfile using ((column("n") == nsel && slot(strcol("variant")) > 0 && column("pass") >= 0) ? \
      (T[4 * (slot(strcol("variant")) - 1) + phase_slot(strcol("phase"))] = \
       T[4 * (slot(strcol("variant")) - 1) + phase_slot(strcol("phase"))] + column("ms")) : \
      (column("n") == nsel && strcol("variant") eq "cub" && strcol("phase") eq "total") ? (cub = column("ms")) : 0) nooutput
upto(v, k) = sum [j = 1:k] T[4 * (v - 1) + j]

set style fill solid 0.85 border rgb "#404040"
set boxwidth 0.6
set xrange [0.4:5.6]
set xtics () 
do for [v = 1:5] { set xtics add (word(labels, v) v) }
set xlabel "bits per pass"
set yrange [0:*]
set ylabel "time per sort (ms, median)"
set title sprintf("Lab 05: digit width\n%s", subtitle(sprintf("n = 2^{%d}, random keys; each bar: its phases summed over the passes", int(log(nsel) / log(2) + 0.5))))
@open_output
set print $bars                 # one line per bar: its position
do for [v = 1:5] { print v }
unset print
set datafile nocolumnheaders  # $bars has none
plot for [k = 4:1:-1] $bars using 1:(upto($1, k) > 0 ? upto($1, k) : NaN) with boxes lc rgb phase_color(k) title phase_title(k), \
     cub with lines dt 2 lw 2 lc rgb vcolor("cub", 1) title sprintf("CUB SortKeys (%.1f ms)", cub)
