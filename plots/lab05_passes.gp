# plots/lab05_passes.gp -- Lab 05 figure: the four-bit sort pass by pass at
# n = 2^28, each bar stacked from the times of its phases (histogram, scan,
# scatter; the pass count before pass 1), from `lab05 passes`. Run by
# plots/render.sh. Variables: datafile (lab05.tsv; the passes file is
# found beside it), passfile, nsel, variant, device, fmt, outfile, plotdir.
if (!exists("plotdir")) plotdir = "plots"
load plotdir."/lab05-common.gp"
if (strlen(outfile) == 0) outfile = "lab05_passes.".fmt
if (!exists("variant")) variant = "4bit"

array P[4 * 32]               # P[4 * pass + k]: k = 1 pass count, 2 histogram, 3 scan, 4 scatter
do for [i = 1:4 * 32] { P[i] = 0 }
passes = 0
stats passfile using ((column("n") == nsel && strcol("variant") eq variant && column("pass") >= 0) ? \
      (P[4 * int(column("pass")) + phase_slot(strcol("phase"))] = P[4 * int(column("pass")) + phase_slot(strcol("phase"))] + column("ms"), \
       passes = (column("pass") + 1 > passes ? column("pass") + 1 : passes)) : 0) nooutput
if (passes == 0) { exit error sprintf("lab05_passes.gp: no rows of %s at n = %d in '%s'", variant, nsel, passfile) }
upto(p, k) = sum [j = 1:k] P[4 * (p - 1) + j]   # pass p (1-based), phases 1..k stacked

set style fill solid 0.85 border rgb "#404040"
set boxwidth 0.7
set xrange [0.3:passes + 0.7]
set xtics 1
set xlabel "pass (4 bits each, from the lowest digit)"
set yrange [0:*]
set ylabel "time (ms, median)"
set key outside right top vertical Left reverse
set title sprintf("Lab 05: the four-bit sort, pass by pass\n%s", subtitle(sprintf("n = 2^{%d}, random keys", int(log(nsel) / log(2) + 0.5))))
@open_output
set print $bars                 # one line per bar: the pass
do for [p = 1:passes] { print p }
unset print
set datafile nocolumnheaders  # $bars has none
plot for [k = 4:1:-1] $bars using 1:(upto($1, k)) with boxes lc rgb phase_color(k) title phase_title(k)
