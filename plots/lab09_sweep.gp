# plots/lab09_sweep.gp -- Lab 09 figure: the onesweep sort against CUB's
# DeviceRadixSort, n = 2^16 .. 2^28 (log2 x): keys sorted per second
# (Gkeys/s, n over the time of one whole sort) of the tuned sort, part d
# (keys) and part dp (key-value pairs), beside CUB's SortKeys and
# SortPairs (the vendor rows of the same parts, same run). The vendor
# library measured against (the data's '# vendor:' line) and the driver
# (its '# driver:' line, when there is one) are printed on the figure; the data's pct_copy column gives each row's bytes (36 per
# key, 68 per pair) as a share of the copy bandwidth. Each part's own roof
# is drawn too: the keys per second its algorithm's bytes allow at the
# copy's speed (harness/parent/roofs.h: 9n words, 17n for pairs, CUB's
# algorithm's too; data measured before the roofs has none).
# Normally run by plots/render.sh; by hand from the repo root:
#   gnuplot -e "datafile='plots/data/lab09.tsv'" plots/lab09_sweep.gp
# Variables (all but datafile optional): datafile, device, copy_gbps,
# fmt (png|svg|pdf), outfile, plotdir (folder of style.gp), impl (the GPU
# rows: "solution" or "student"; default solution when the data has any).
# The data: `build/solutions/lab09 sweep --out plots/data/lab09.tsv`.

me = "lab09_sweep.gp"
if (!exists("plotdir")) plotdir = "plots"
readable(f) = strlen(f) > 0 && system(sprintf("test -r '%s' && echo 1 || echo 0", f)) eq "1"
if (exists("datafile") && !readable(datafile)) {
    exit error sprintf("%s: cannot read data file '%s'", me, datafile)
}
part = "d"                      # style.gp checks that this part has rows
load plotdir."/style.gp"
if (strlen(outfile) == 0) outfile = "lab09_sweep.".fmt

pickp(p, v, c) = (strcol("part") eq p && strcol("variant") eq v) ? column(c) : NaN
rate(p, v) = (strcol("part") eq p && strcol("variant") eq v && column("time_ms") > 0) ? \
    column("n") / (column("time_ms") * 1e6) : NaN
pairs = " "
stats datafile using ((strstrt(pairs, " ".strcol("part").":".strcol("variant")." ") == 0) \
      ? (pairs = pairs.strcol("part").":".strcol("variant")." ", 0) : 0) nooutput
has_pv(p, v) = strstrt(pairs, " ".p.":".v." ") > 0
if (!exists("impl")) impl = (strstrt(pairs, ":solution ") > 0 || strstrt(pairs, ":student ") == 0) ? "solution" : "student"

vendor = system(sprintf("sed -n 's/^# vendor: //p' '%s' | head -n 1", datafile))
driver = system(sprintf("sed -n 's/^# driver: //p' '%s' | head -n 1", datafile))
cub_tag = strlen(vendor) > 0 ? sprintf(" (%s)", vendor) : ""

# The lines: the tuned sort and CUB's, keys and pairs.
lines = "keys cubkeys pairs cubpairs"
lpart(k) = (k eq "keys" || k eq "cubkeys") ? "d" : "dp"
lvar(k)  = (k eq "cubkeys" || k eq "cubpairs") ? "cub" : impl
_who(v)  = v eq "student" ? " (student)" : ""
ltitle(k) = k eq "keys" ? "onesweep sort, keys, part d"._who(impl) : \
            k eq "pairs" ? "onesweep sort, pairs, part dp"._who(impl) : \
            k eq "cubkeys" ? "CUB SortKeys".cub_tag : "CUB SortPairs".cub_tag
lcolor(k) = (k eq "keys" || k eq "cubkeys") ? "#0072B2" : "#D55E00"
lpoint(k) = k eq "keys" ? 7 : k eq "pairs" ? 5 : k eq "cubkeys" ? 6 : 4
ldash(k)  = (k eq "cubkeys" || k eq "cubpairs") ? 2 : 1
_keepl(l, i, acc) = i > words(l) ? acc : \
    _keepl(l, i + 1, has_pv(lpart(word(l, i)), lvar(word(l, i))) ? acc.(strlen(acc) ? " " : "").word(l, i) : acc)
shown = _keepl(lines, 1, "")
if (words(shown) == 0) {
    exit error sprintf("%s: no rows of part d or dp (%s or cub) in '%s'", me, impl, datafile)
}

@LOGX_N
unset logscale y
set format y '%g'
set ylabel 'keys sorted per second (Gkeys/s)'
set yrange [0:*]
set xrange [2**16:2**28]
set offsets graph 0.03, graph 0.03, 0, 0
set title "Lab 09: onesweep radix sort against CUB, u32 keys and pairs\n". \
    subtitle((strlen(vendor) > 0 ? "yardstick ".vendor : "yardstick CUB (version not recorded)"). \
             (strlen(driver) > 0 ? ", driver ".driver : ""))
set key inside right bottom vertical Left reverse box opaque

# The parts' own roofs, as lab02_bw.gp draws them, in keys per second.
algroofs = ""
if (has_gpu && has_alg) {
    do for [k in "keys pairs"] {
        if (strstrt(" ".shown." ", " ".k." ") > 0) { algroofs = algroofs.(strlen(algroofs) ? " " : "").k }
    }
}
roof_title(k) = sprintf("%s at its roof: %s", k eq "keys" ? "keys (d)" : "pairs (dp)", alg_words(lpart(k)))
# (a plot clause only when there is one: gnuplot warns of an empty iteration)
algplot = words(algroofs) == 0 ? "" : \
    ', for [k in algroofs] datafile using (pickp(lpart(k), impl, "n")):(at_roof_rate(lpart(k), impl)) ' . \
    'with lines lw 1.5 dt (6, 4) lc rgb lcolor(k) title roof_title(k)'
# (the roofs leave the upper left empty: the key goes there, off the curves,
# just under the highest roof)
if (words(algroofs) > 0) {
    stats datafile using (pickp(lpart(word(algroofs, 1)), impl, "n")):(at_roof_rate(lpart(word(algroofs, 1)), impl)) nooutput
    set key at graph 0.02, first 0.94 * STATS_max_y left top
}

@open_output
plot for [i = 1:words(shown)] datafile \
        using (pickp(lpart(word(shown, i)), lvar(word(shown, i)), "n")): \
              (rate(lpart(word(shown, i)), lvar(word(shown, i)))) \
        with linespoints lw 2 dt ldash(word(shown, i)) \
        lc rgb lcolor(word(shown, i)) pt lpoint(word(shown, i)) \
        title ltitle(word(shown, i)) @algplot
