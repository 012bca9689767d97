# plots/lab08_chain.gp -- Lab 08 figure: why the chained scan is slow. Time
# per tile (ms per call / tiles of 2048 elements, log y) against n (log2 x)
# for the chained scan (part a) and the decoupled look-back (part b), whose
# tiles are the same size. The chain's time per tile stays flat at the
# latency of one hand-over from a tile to the next (a flag seen, a value
# read, a value and a flag published); the look-back's falls as more tiles
# overlap their waits, until memory bandwidth sets it.
# Normally run by plots/render.sh; by hand from the repo root:
#   gnuplot -e "datafile='plots/data/lab08.tsv'" plots/lab08_chain.gp
# Variables (all but datafile optional): datafile, device, copy_gbps, fmt,
# outfile, plotdir, impl ("solution" or "student"), tile (elements per tile
# of parts a and b, default 2048, the solution's).

me = "lab08_chain.gp"
if (!exists("plotdir")) plotdir = "plots"
readable(f) = strlen(f) > 0 && system(sprintf("test -r '%s' && echo 1 || echo 0", f)) eq "1"
if (exists("datafile") && !readable(datafile)) {
    exit error sprintf("%s: cannot read data file '%s'", me, datafile)
}
if (exists("datafile")) {
    # no rows of part a (data swept with --part c only): skipped with one line
    _rows = system(sprintf("awk -F'\t' '/^#/ { next } " . \
                           "!h { for (i = 1; i <= NF; i++) if ($i == \"part\") c = i; h = 1; next } " . \
                           "c && $c == \"a\" { print 1; exit }' '%s'", datafile))
    if (_rows ne "1") {
        print sprintf("%s: no rows of part 'a' in '%s' (a sweep of other parts): figure skipped; " . \
                      "measure them with 'make plots LAB=08' on a GPU", me, datafile)
        exit gnuplot
    }
}
part = "a"
load plotdir."/style.gp"
if (strlen(outfile) == 0) outfile = "lab08_chain.".fmt
if (!exists("tile")) tile = 2048

pickp(p, v, c) = (strcol("part") eq p && strcol("variant") eq v) ? column(c) : NaN
pairs = " "
stats datafile using ((strstrt(pairs, " ".strcol("part").":".strcol("variant")." ") == 0) \
      ? (pairs = pairs.strcol("part").":".strcol("variant")." ", 0) : 0) nooutput
has_pv(p, v) = strstrt(pairs, " ".p.":".v." ") > 0
if (!exists("impl")) impl = (strstrt(pairs, ":solution ") > 0 || strstrt(pairs, ":student ") == 0) ? "solution" : "student"
if (!has_pv("a", impl)) {
    exit error sprintf("%s: no '%s' rows of part a in '%s'", me, impl, datafile)
}

tiles(n) = ceil(n / tile)
us_per_tile(p) = 1000 * pickp(p, impl, "time_ms") / tiles(pickp(p, impl, "n"))

@LOGX_N
set logscale y 10
set format y '%g'
set ylabel sprintf('time per tile of %d elements (us)', tile)
set title "Lab 08: the chain's hand-over against the look-back\n".subtitle("same tiles; time per call / tiles")
set xrange [2**16:2**30]
set offsets graph 0.03, graph 0.03, 0, 0
set key inside right top vertical Left reverse box opaque

@open_output
plot datafile using (pickp("a", impl, "n")):(us_per_tile("a")) with linespoints lw 2 \
        lc rgb "#D55E00" pt 5 title "chained scan, part a", \
     datafile using (pickp("b", impl, "n")):(us_per_tile("b")) with linespoints lw 2 \
        lc rgb "#56B4E9" pt 6 title "decoupled look-back, part b"
