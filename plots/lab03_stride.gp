# plots/lab03_stride.gp -- Lab 03 figure: time of the stride microbenchmark
# (2^20 threads x 256 shared-memory reads) against the stride, for 4- and
# 8-byte words, with the bank-conflict analyzer's predicted ways of conflict
# on the right axis (lab03_banks.tsv beside the data file). Run by
# plots/render.sh. Variables: datafile, device, fmt, outfile, plotdir, banksfile.
if (!exists("plotdir")) plotdir = "plots"
part = "a4"
load plotdir."/style.gp"
if (strlen(outfile) == 0) outfile = "lab03_stride.".fmt
if (!exists("banksfile")) {
    k = strstrt(datafile, "lab03.tsv")
    banksfile = k ? datafile[1:k-1]."lab03_banks.tsv" : ""
}
if (strlen(banksfile) == 0 || system("test -s '".banksfile."' && echo 1 || echo 0") ne "1") {
    exit error sprintf("lab03_stride.gp: no analyzer data '%s' (build/labs/lab03 analyze --out it)", banksfile)
}
pk(p, v, c) = (strcol("part") eq p && strcol("variant") eq v) ? column(c) : NaN
bk(w, c) = strcol("what") eq w ? column(c) : NaN

set xrange [0:65]
set xtics 8
set mxtics 8
set xlabel "stride (in words of the access width)"
set logscale y 2
set ylabel "time of 2^{28} reads (ms, median)"
set logscale y2 2
set y2range [0.7:48]
set y2tics (1, 2, 4, 8, 16, 32) nomirror
set y2label "predicted ways of conflict"
set key outside right top
set title "Lab 03: shared-memory reads at a stride\n".subtitle("measured time (points) and the analyzer's prediction (steps)")
@open_output
plot datafile using (pk("a4", "solution", "n")):(pk("a4", "solution", "time_ms")) with linespoints lw 2 lc rgb "#0072B2" pt 7 ps 0.9 title "4-byte words, measured", \
     '' using (pk("a8", "solution", "n")):(pk("a8", "solution", "time_ms")) with linespoints lw 2 lc rgb "#D55E00" pt 5 ps 0.9 title "8-byte words, measured", \
     banksfile using (bk("stride32", "x")):(bk("stride32", "degree")) axes x1y2 with histeps lw 1.5 dt 2 lc rgb "#56B4E9" title "4-byte words, predicted ways", \
     banksfile using (bk("stride64", "x")):(bk("stride64", "degree")) axes x1y2 with histeps lw 1.5 dt 3 lc rgb "#E69F00" title "8-byte words, predicted ways"
