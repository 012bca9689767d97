# plots/lab02_time.gp -- Lab 02 figure: median time per call against n,
# log-log: Blelloch in global and in shared memory, lab 01's Hillis-Steele
# (read from lab01.tsv beside the data file, when it is there), CUB and the
# CPU references (exclusive scan). Run by plots/render.sh, or by hand:
#   gnuplot -e "datafile='plots/data/lab02.tsv'" plots/lab02_time.gp
# Variables: datafile, device, copy_gbps, fmt, outfile, plotdir, lab01file.
if (!exists("plotdir")) plotdir = "plots"
part = "b"
load plotdir."/style.gp"
if (strlen(outfile) == 0) outfile = "lab02_time.".fmt
if (!exists("lab01file")) {
    k = strstrt(datafile, "lab02")
    lab01file = k ? datafile[1:k-1]."lab01".datafile[k+5:*] : ""
}
have01 = strlen(lab01file) && system("test -s '".lab01file."' && echo 1 || echo 0") eq "1"
pk(p, v, c) = (strcol("part") eq p && strcol("variant") eq v) ? column(c) : NaN

@LOGX_N
@LOGY_MS
set title "Lab 02: work-efficient scan, time\n".subtitle("exclusive scan")
hs = have01 ? sprintf(", '%s' using (pk('c','solution','n')):(pk('c','solution','time_ms')) with linespoints lw 2 dt 2 lc rgb '#56B4E9' pt 6 title 'Hillis-Steele (lab 01)'", lab01file) : ""
@open_output
plot datafile using (pk("a", "solution", "n")):(pk("a", "solution", "time_ms")) with linespoints lw 2 lc rgb "#CC79A7" pt 11 title "Blelloch, global memory", \
     '' using (pk("b", "solution", "n")):(pk("b", "solution", "time_ms")) with linespoints lw 2 lc rgb vcolor("solution", 1) pt 7 title "Blelloch, shared memory", \
     '' using (pk("b", "cub", "n")):(pk("b", "cub", "time_ms")) with linespoints lw 2 lc rgb vcolor("cub", 1) pt vpoint("cub", 1) title "CUB DeviceScan", \
     '' using (pk("b", "cpu_omp", "n")):(pk("b", "cpu_omp", "time_ms")) with linespoints lw 2 lc rgb vcolor("cpu_omp", 1) pt vpoint("cpu_omp", 1) title "CPU OpenMP", \
     '' using (pk("b", "cpu_serial", "n")):(pk("b", "cpu_serial", "time_ms")) with linespoints lw 2 lc rgb vcolor("cpu_serial", 1) pt vpoint("cpu_serial", 1) title "CPU serial" @hs
