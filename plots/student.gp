# plots/student.gp -- a student's figure (issue 55 item 3): their
# throughput as a fraction of the vendor library's (CUB; cuSPARSE for lab
# 06's SpMV), measured in the same run, against n (log2 x, log y), beside
# the solution's reference data (plots/data/labNN.tsv, measured on the GPU
# the data names), with the vendor library as the line at 1.
# Written for harness/serve/figure.sh, which makes its inputs: from a
# check-service job's results.json (one point per performance test: the
# sizes the tests time, drawn as points, never joined into a curve) or
# from a `labNN sweep` of the student's code (make plots IMPL=labs:
# lines across n).
# Variables: plotdir, datafile (columns lab, part, variant, n, x_vendor,
# series: variant "student" the student's ratios, "solution" the
# reference's; series k = 1..nseries, one performance test or part each),
# fmt, outfile, device, copy_gbps (for style.gp), and what `setup` (a
# file figure.sh writes, loaded first) sets: part (a part with rows, for
# style.gp), nseries, the arrays yours_title, sol_title (one per series;
# "" when the series has no reference data; both enhanced text), joined (1: the student's
# points are a sweep, drawn as lines), labelled (1: each of the student's
# points has its value written beside it), title_text, sub_text,
# sub2_text (plain text), vendor_title (enhanced), xlabel_text (the
# x axis's label, "" for style.gp's), xmin, xmax, ymin, ymax.

if (!exists("plotdir")) plotdir = "plots"
load setup
load plotdir."/style.gp"
if (strlen(outfile) == 0) outfile = "student.".fmt

ps(i, v, c) = (column("series") == i && strcol("variant") eq v) ? column(c) : NaN
# one colour per series (Okabe-Ito, as style.gp's), the student's points
# filled and large, the solution's dashed with open points of that colour
scolor(i) = word("#0072B2 #D55E00 #009E73 #CC79A7 #E69F00 #56B4E9", (int(i) - 1) % 6 + 1)
has_sol(i) = strlen(sol_title[i]) > 0
nsol = 0
do for [i = 1:nseries] { nsol = nsol + has_sol(i) }

@LOGX_N
# the label's second, empty line: room between it and the key below
set xlabel (strlen(xlabel_text) > 0 ? xlabel_text : "n (elements)")."\n"
set logscale y 10
set format y '%g'
set ytics (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50)
set mytics 10
set ylabel "throughput / the vendor library's (same run)"
set xrange [xmin:xmax]
set yrange [ymin:ymax]
set title esc(title_text)."\n".sprintf("{/*0.72 %s}\n{/*0.72 %s}", esc(sub_text), esc(sub2_text))
# the key under the plot: its lines are long, and the title centres on
# the plot's width
keyrows = int(ceil((1 + nseries + nsol) / 2.0))
set key outside below center vertical Left reverse noautotitle maxrows keyrows width 2 height 1
set style textbox opaque noborder margins 1, 1

yours_style = joined ? "linespoints lw 2.5 pt 7 ps 1.3" : "points pt 7 ps 2.6"

@open_output
plot 1 with lines lw 3 lc rgb "#202020" dt (10, 6) title vendor_title, \
     for [i = 1:nseries] datafile using (ps(i, "solution", "n")):(ps(i, "solution", "x_vendor")) \
        with linespoints lw 2 dt 2 pt 6 ps 1.0 lc rgb scolor(i) title (has_sol(i) ? sol_title[i] : ""), \
     for [i = 1:nseries] datafile using (ps(i, "student", "n")):(ps(i, "student", "x_vendor")) \
        with @yours_style lc rgb scolor(i) title yours_title[i], \
     for [i = 1:(labelled ? nseries : 0)] datafile \
        using (ps(i, "student", "n")):(ps(i, "student", "x_vendor")):(sprintf("%.3fx", ps(i, "student", "x_vendor"))) \
        with labels boxed offset 0, (i % 2 ? 1.6 : -1.6) tc rgb scolor(i) notitle
