# plots/lab02_adds.gp -- Lab 02 figure: the additions each scan performs
# against n (powers of two): the serial loop n - 1, Hillis-Steele
# n log2 n - (n - 1), Blelloch 2 (n - 1) (up-sweep plus down-sweep).
# Analytic: the data file only names the device for the subtitle.
if (!exists("plotdir")) plotdir = "plots"
part = "b"
load plotdir."/style.gp"
if (strlen(outfile) == 0) outfile = "lab02_adds.".fmt

lg(x) = log(x) / log(2)
@LOGX_N
set logscale y 10
set format y "10^{%L}"
set ylabel "additions"
set xrange [16:2**28]
set samples 25
set title "Lab 02: work of each scan\n{/*0.72 additions for n elements (a power of two); the machine is not involved}"
@open_output
plot x - 1 with linespoints lw 2 lc rgb vcolor("cpu_serial", 1) pt vpoint("cpu_serial", 1) title "serial loop: n - 1", \
     x * lg(x) - (x - 1) with linespoints lw 2 lc rgb "#56B4E9" pt 6 title "Hillis-Steele: n log_2 n - (n - 1)", \
     2 * (x - 1) with linespoints lw 2 lc rgb vcolor("solution", 1) pt 7 title "Blelloch: 2 (n - 1)"
