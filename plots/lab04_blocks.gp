# plots/lab04_blocks.gp -- Lab 04 (stream compaction) figure: the
# block-size experiment (part ct): effective GB/s of the one-pass warp-vote
# compaction against threads per block, half of the elements kept, the
# time per call on the right axis, CUB DeviceSelect at the same n, and the
# device copy bandwidth as the roof. Drawn by plots/blocks-common.gp (its
# header lists the variables); run by plots/render.sh, or by hand:
#   gnuplot -e "datafile='plots/data/lab04.tsv'" plots/lab04_blocks.gp
# Variables: datafile, device, copy_gbps, fmt, outfile, plotdir, impl,
# show_time. Data measured before part ct existed: the figure is skipped.

me = "lab04_blocks.gp"
if (!exists("plotdir")) plotdir = "plots"
blk_part = "ct"
blk_lab = "Lab 04"
blk_what = "one-pass compaction"
blk_n = "2^{24} + 3"            # the size the lab 04 harness runs part ct at
blk_extra = "half kept"
blk_vendor = "CUB DeviceSelect"
blk_keys = 0
load plotdir."/blocks-common.gp"
