# plots/lab02_adds.gp -- Lab 02 (Blelloch scan) figure, analytic: the number
# of additions each scan performs on n elements, n = 2^4 .. 2^28 (powers of
# two), log-log:
#   serial loop     n - 1
#   Hillis-Steele   sum over d of (n - 2^d) for 2^d < n  =  n log2 n - (n - 1)
#   Blelloch        up-sweep n - 1 plus down-sweep n - 1  =  2 (n - 1)
# Nothing is measured: the data file only names the device for the subtitle
# (style.gp still needs it, with rows for part b).
# Normally run by plots/render.sh; by hand from the repo root:
#   gnuplot -e "datafile='plots/data/lab02.tsv'" plots/lab02_adds.gp
# Variables (all but datafile optional): datafile, device, fmt
# (png|svg|pdf), outfile, plotdir (folder of style.gp).
# The part is fixed (b): a `part` given is ignored.

me = "lab02_adds.gp"
if (!exists("plotdir")) plotdir = "plots"
readable(f) = strlen(f) > 0 && system(sprintf("test -r '%s' && echo 1 || echo 0", f)) eq "1"
if (exists("datafile") && !readable(datafile)) {
    exit error sprintf("%s: cannot read data file '%s'", me, datafile)
}
part = "b"                      # style.gp checks that this part has rows
load plotdir."/style.gp"
if (strlen(outfile) == 0) outfile = "lab02_adds.".fmt

# k = log2 n; the counts are exact integers (below 2^53) for k <= 28.
adds_serial(k) = 2.0**k - 1
adds_hs(k)     = 2.0**k * k - (2.0**k - 1)
adds_blelloch(k) = 2 * (2.0**k - 1)

@LOGX_N
set xrange [2**4 : 2**28]
set xtics 2**4, 4          # 2^4, 2^6, ...: start the tics at the range
set logscale y 10
set format y "10^{%L}"
set mytics 10
set ylabel "additions"
set title "Lab 02: work of each scan\n".subtitle("additions for n elements, n a power of two (analytic)")
# At n = 2^28 Hillis-Steele does about 26 times the additions of the serial loop.
set label 2 sprintf("at n = 2^{28}: Hillis-Steele %.1f x, Blelloch 2 x the serial loop", \
                    adds_hs(28) / adds_serial(28)) \
    at graph 0.98, graph 0.06 right front tc rgb "#404040"

# The points, one row per power of two, in a datablock with a header
# (style.gp reads every file with column headers, tab separated).
set print $ADDS
print "k\tn\tserial\ths\tblelloch"
do for [k = 4:28] {
    print sprintf("%d\t%.0f\t%.0f\t%.0f\t%.0f", k, 2.0**k, adds_serial(k), adds_hs(k), adds_blelloch(k))
}
unset print

@open_output
plot $ADDS using "n":"serial" \
        with linespoints lw 2 lc rgb vcolor("cpu_serial", 1) pt vpoint("cpu_serial", 1) \
        title "serial loop: n - 1", \
     $ADDS using "n":"hs" \
        with linespoints lw 2 lc rgb "#CC79A7" pt 11 \
        title "Hillis-Steele: n log_2 n - (n - 1)", \
     $ADDS using "n":"blelloch" \
        with linespoints lw 2 lc rgb "#0072B2" pt 7 \
        title "Blelloch: 2 (n - 1)"
