# plots/style.gp -- shared look for every primlab figure (lecture slides).
#
# Loaded first by each plots/labNN_<what>.gp script:
#     load plotdir."/style.gp"
# It provides
#   * defaults for the input variables (fmt, part, outfile, device, copy_gbps)
#     and fills device / copy_gbps from the data file when they were not given;
#   * term_cmd(fmt) and the macro @open_output (terminal + output file);
#   * a fixed colour / point type per variant name (vcolor, vpoint, vlabel);
#   * row filters (pick) and the string `variants_present`;
#   * axis macros @LOGX_N, @LOGY_MS, @LOGY_GBPS and helpers for titles.
# Nothing is plotted here.

# ---------------------------------------------------------------- inputs --
if (!exists("datafile")) {
    exit error "style.gp: no datafile given (use -e \"datafile='plots/data/labNN.tsv'\")"
}
if (!exists("fmt"))     fmt = "png"
if (!exists("part"))    part = "c"
if (!exists("outfile")) outfile = ""      # each figure script sets its default

# The lab TSV: tab separated, '#' comments, one header line with names.
set datafile separator "\t"
set datafile commentschars "#"
set datafile columnheaders
# NaN from "nan" fields or from the row filters counts as missing, so
# lines still join the points that remain.
set datafile missing NaN

# Fill in device and copy bandwidth from the rows when the caller
# (plots/render.sh) did not pass them.  Done before any log axis is set.
if (!exists("device") || !exists("copy_gbps")) {
    _dev = ""
    _copy = NaN
    stats datafile using (_dev = strcol("device"), \
                          _copy = (column("copy_gbps") > 0 ? column("copy_gbps") : _copy), \
                          0) nooutput
    if (!exists("device"))    { device = _dev }
    if (!exists("copy_gbps")) { copy_gbps = _copy }
}
if (strlen(device) == 0) device = "unknown device"

# True when the data came from a run with a GPU (copy roof known).
has_gpu = (copy_gbps == copy_gbps && copy_gbps > 0) ? 1 : 0

# Whether the data's header line names column c: data written before a
# column existed lacks it (alg_bytes and pct_alg, the algorithms' roofs,
# since 2026-11-29), and a figure draws what it needs only where it is. A
# datablock (a figure's own stand-in rows, "$name") has no file to read.
has_column(c) = datafile[1:1] eq "$" ? 0 : system(sprintf("awk -F'\t' '/^lab\t/ { for (i = 1; i <= NF; i++) if ($i == c) f = 1; exit } " . \
                               "END { print f + 0 }' c='%s' '%s'", c, datafile)) eq "1"
# Part p's algorithm as its data names it ("# alg_b: 3n words: ..."), up to
# the first colon, or the whole line where it has none (lab 07's): "3n
# words"; "" when the data has none.
alg_words(p) = system(sprintf("sed -n 's/^# alg_%s: \\([^:]*\\).*/\\1/p' '%s' | head -n 1", p, datafile))
# The same without what follows in parentheses, for a figure's key:
# "n + c words (c kept, keep * n)" as "n + c words".
alg_brief(p) = system(sprintf("sed -n 's/^# alg_%s: \\([^:]*\\).*/\\1/p' '%s' | head -n 1 | sed 's/ (.*//'", p, datafile))
# The same with every parenthesis dropped, not only the first and all after
# it, for a formula that goes on after one: lab 07's "5n words once (a
# copied in, x[k] gathered), then 3n and s (rows + 1) an iteration" as "5n
# words once, then 3n and s an iteration".
alg_plain(p) = system(sprintf("sed -n 's/^# alg_%s: \\([^:]*\\).*/\\1/p' '%s' | head -n 1 | sed 's/ ([^)]*)//g'", p, datafile))
has_alg = has_column("pct_alg")
# A part's rows at its algorithm's roof, for the figures that draw it (only
# where has_alg): on the rows of part p and variant v, what the row's time
# would be if its algorithm's bytes (alg_bytes) moved at the row's copy
# bandwidth, in the figure's own measure: the time (ms), the GB/s the rows
# count (the copy times the bytes counted, gbps * time, over alg_bytes, as
# lab02_bw.gp draws it) or elements per second (billions); NaN on the other
# rows and where the row states no bytes.
_alg_row(p, v) = strcol("part") eq p && strcol("variant") eq v && column("alg_bytes") > 0
at_roof_ms(p, v)   = _alg_row(p, v) ? column("alg_bytes") / (column("copy_gbps") * 1e6) : NaN
at_roof_gbps(p, v) = _alg_row(p, v) ? column("copy_gbps") * column("gbps") * column("time_ms") * 1e6 / column("alg_bytes") : NaN
at_roof_rate(p, v) = _alg_row(p, v) ? column("n") * column("copy_gbps") / column("alg_bytes") : NaN
# Whether parts p and q state the same formula (one roof line for both).
same_alg(p, q) = strlen(alg_words(p)) > 0 && alg_words(p) eq alg_words(q)

# ------------------------------------------------------ terminal / output --
font_name = "DejaVu Sans"       # plain sans; fontconfig falls back if absent
font_size = 14
fig_w = 1280
fig_h = 800

term_cmd(f) = \
    f eq "png" ? sprintf("set terminal pngcairo size %d,%d enhanced font '%s,%d' linewidth 1.5 background rgb 'white'", fig_w, fig_h, font_name, font_size) : \
    f eq "svg" ? sprintf("set terminal svg size %d,%d dynamic enhanced font '%s,%d' linewidth 1.5 background rgb 'white'", fig_w, fig_h, font_name, font_size) : \
    f eq "pdf" ? sprintf("set terminal pdfcairo size %.2fin,%.2fin enhanced font '%s,%d' linewidth 1.5", fig_w/160.0, fig_h/160.0, font_name, 10) : \
    "print 'style.gp: unknown fmt \"".f."\" (want png, svg or pdf)'; exit status 2"

# Usage in a figure script, after outfile has its default:  @open_output
open_output = "eval term_cmd(fmt); set output outfile"

# --------------------------------------------------------------- general --
set encoding utf8
set border 3 lw 1.2 lc rgb "#404040"          # left + bottom only
set tics nomirror out scale 0.8
set grid xtics ytics mxtics mytics \
    lt 1 lw 1.0 lc rgb "#d8d8d8", lt 1 lw 0.6 lc rgb "#efefef"
set key outside right top vertical Left reverse noautotitle \
    box lw 1 lc rgb "#a0a0a0" samplen 2.5 spacing 1.3 width 1
set title font sprintf("%s,%d", font_name, font_size + 4)
set xlabel offset 0, 0.3
set ylabel offset 1, 0
set pointsize 1.4
set style line 100 lt 1 lw 2.0 dt (10, 6) lc rgb "#202020"   # roof lines

# ------------------------------------------------------------------ axes --
# n is a power of two (or close to one): log2 axis, tics 2^10, 2^12, ...
LOGX_N    = "set logscale x 2; set format x '2^{%L}'; set xtics 4; set mxtics 2; set xlabel 'n (elements)'"
LOGY_MS   = "set logscale y 10; set format y '%g'; set mytics 10; set ylabel 'time per call (ms, median)'"
LOGY_GBPS = "set logscale y 10; set format y '%g'; set mytics 10; set ylabel 'effective bandwidth (GB/s)'"
LINY_GBPS = "unset logscale y; set format y '%g'; set mytics 2; set ylabel 'effective bandwidth (GB/s)'"

# --------------------------------------------------------------- variants --
# One colour and point type per variant name, the same in every figure
# (Okabe-Ito palette, readable by colour-blind viewers and on projectors).
# Unknown variants get a spare colour picked by their position i (1, 2, ...).
spare_color(i) = word("#CC79A7 #8C564B #000000 #F0C000 #7F7F7F", (int(i) - 1) % 5 + 1)
vcolor(v, i) = \
    v eq "solution"   ? "#0072B2" : \
    v eq "student"    ? "#56B4E9" : \
    v eq "cpu_serial" ? "#E69F00" : \
    v eq "cpu_omp"    ? "#D55E00" : \
    v eq "cub"        ? "#009E73" : \
    spare_color(i)
vpoint(v, i) = \
    v eq "solution"   ? 7  : \
    v eq "student"    ? 6  : \
    v eq "cpu_serial" ? 5  : \
    v eq "cpu_omp"    ? 9  : \
    v eq "cub"        ? 13 : \
    int(word("11 4 8 12 2", (int(i) - 1) % 5 + 1))
vdash(v) = v eq "student" ? 2 : 1

# Key text for a variant.  Generic here; a lab script may redefine vlabel(v)
# after loading this file (lab 01 names its solution "Hillis-Steele").
vlabel(v) = \
    v eq "solution"   ? "solution" : \
    v eq "student"    ? "student" : \
    v eq "cpu_serial" ? "CPU serial" : \
    v eq "cpu_omp"    ? "CPU OpenMP" : \
    v eq "cub"        ? "CUB" : \
    v

# ------------------------------------------------------------ row filter --
# pick(v, colname): the column's value on rows of variant v and the chosen
# part, NaN on every other row (the header is never a data row).
pick(v, c) = (strcol("part") eq part && strcol("variant") eq v) ? column(c) : NaN

# Variants that have at least one row of the chosen part, in file order,
# as a space separated list: " solution cub ... ".
variants_present = " "
stats datafile using ((strcol("part") eq part && \
                       strstrt(variants_present, " ".strcol("variant")." ") == 0) \
                      ? (variants_present = variants_present.strcol("variant")." ", 0) : 0) \
      nooutput
if (variants_present eq " ") {
    exit error sprintf("style.gp: no rows for part '%s' in '%s'", part, datafile)
}

# keep_present(list): the words of list that have rows, order kept.
# Used to build the plot list without producing empty-plot warnings.
has_variant(v) = strstrt(variants_present, " ".v." ") > 0
keep_present(list) = _keep(list, 1, "")
_keep(l, k, acc) = k > words(l) ? acc : \
    _keep(l, k + 1, has_variant(word(l, k)) ? acc.(strlen(acc) ? " " : "").word(l, k) : acc)

# --------------------------------------------------------------- strings --
# Escape the characters that enhanced text treats specially, so that a
# device name like "GeForce_RTX" is printed as written.
_special(c) = c eq "_" || c eq "^" || c eq "{" || c eq "}" || c eq "@" || c eq "&" || c eq "~"
esc(s) = strlen(s) == 0 ? "" : (_special(s[1:1]) ? "\\".s[1:1] : s[1:1]).esc(s[2:*])

# Smaller second title line: device (and a CPU-only note when there is no GPU).
subtitle(extra) = sprintf("{/*0.72 %s%s%s}", esc(device), \
                          has_gpu ? "" : "  |  no GPU: CPU rows only", \
                          strlen(extra) ? "  |  ".extra : "")
