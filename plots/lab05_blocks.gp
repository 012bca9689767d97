# plots/lab05_blocks.gp -- Lab 05 (radix sort) figure: the block-size
# experiment (part bt): keys sorted per second by the four-bit sort against
# threads per block, random 32-bit keys, the time per call on the right
# axis, and CUB SortKeys at the same n. No roof: a sort of eight passes is
# far below the copy bandwidth at every block size (lab05_keys.gp draws
# the sort's own roof, against n). Drawn by plots/blocks-common.gp (its header lists the
# variables); run by plots/render.sh, or by hand:
#   gnuplot -e "datafile='plots/data/lab05.tsv'" plots/lab05_blocks.gp
# Variables: datafile, device, fmt, outfile, plotdir, impl, show_time.
# Data measured before part bt existed: the figure is skipped.

me = "lab05_blocks.gp"
if (!exists("plotdir")) plotdir = "plots"
blk_part = "bt"
blk_lab = "Lab 05"
blk_what = "four-bit radix sort"
blk_n = "2^{22} + 3"            # the size the lab 05 harness runs part bt at
blk_len = 2**22 + 3
blk_extra = "random 32-bit keys"
blk_vendor = "CUB SortKeys"
blk_keys = 1
load plotdir."/blocks-common.gp"
