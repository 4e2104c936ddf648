# style.gp - what every figure script shares: terminal, size, font, language.
# Set on the command line (gnuplot -e "..." figures/style.gp figures/NAME.gp):
#   lang  'en' or 'es'     the edition; tr(en, es) picks the label
#   term  'svg' or 'pdf'   svg for the HTML book, pdfcairo for the PDF book
#   out   the file to write
#   data  the data file written by the figure's data program
#   textwidth_cm           the PDF book's text block (figures/figures.mk)
# Defined here: tr(en, es); figure(fraction, height_cm); pt(size); big;
# the greyscale-safe colours col_* and palettes palette_* (below).
#
# A figure is drawn at the size the PDF book prints it, so its text is
# printed at its real size: NAME.gp starts with
#     eval figure(0.95, 7.2)
# for a figure that the chapters include with
# \includegraphics[width=0.95\textwidth]{NAME}, 7.2 cm tall. Text is 10 pt
# as printed (the body is 11 pt; figures/check-figures.py fails below 9 pt).
# The SVG for the HTML book has the same proportions, 1.5 px to the point,
# so its text keeps the same ratio to the figure's width at any display size.
if (!exists("lang")) lang = 'en'
if (!exists("term")) term = 'svg'
if (!exists("textwidth_cm")) textwidth_cm = 16.0
if (lang ne 'en' && lang ne 'es') { print "style.gp: lang must be 'en' or 'es', got '".lang."'"; exit status 1 }
if (term ne 'svg' && term ne 'pdf') { print "style.gp: term must be 'svg' or 'pdf', got '".term."'"; exit status 1 }
tr(en, es) = (lang eq 'es') ? es : en

fontpt = 10                  # labels, ticks, keys, titles, as printed
svg_px = 1.5                 # SVG pixels per printed point
cm_pt = 72 / 2.54
# pt(size): a font option ",size" for text of size points as printed
pt(size) = sprintf(",%g", (term eq 'svg') ? size * svg_px : size)
big = pt(fontpt + 1)         # numbers printed in cells

# pdfcairo prints a font asked at s at s * fontscale * 4/3 points; its default
# fontscale 0.5 prints 2/3 of the size asked, 0.75 prints the size asked
fig_pdf(w, h) = sprintf("set terminal pdfcairo size %.3fcm,%.3fcm enhanced font 'DejaVu Sans,%g' fontscale 0.75", \
                        w, h, fontpt)
fig_svg(w, h) = sprintf("set terminal svg size %d,%d enhanced font 'DejaVu Sans,%g' background rgb 'white'", \
                        int(w * cm_pt * svg_px + 0.5), int(h * cm_pt * svg_px + 0.5), fontpt * svg_px)
# figure(fraction, height_cm): the terminal and output, as a command to eval
figure(fraction, h) = ((term eq 'pdf') ? fig_pdf(fraction * textwidth_cm, h) \
                                       : fig_svg(fraction * textwidth_cm, h)) \
                      . "; set output '" . out . "'"

set encoding utf8
set border linecolor rgb '#404040'

# Colours that stay apart in print and greyscale. A printed figure may keep
# only each colour's luminance L, so series that encode different things
# need a luminance contrast (L1 + 0.05) / (L2 + 0.05) of at least 3:1, or
# another dash pattern, marker or hatching (figures/check-figures.py fails
# a figure below that). Any two of col_dark (L 0.03), col_mid (L 0.23) and
# col_light (L 0.82) are at least 3:1 apart; col_light needs a border on
# white. With only two series, col_dark and col_orange (L 0.40) are 5.5:1
# apart. col_ref, dashed, is for reference lines (the uniform row).
col_dark = '#08306b'         # dark blue
col_mid = '#e6550d'          # orange
col_light = '#deebf7'        # pale blue
col_orange = '#fd8d3c'       # light orange
col_ref = '#808080'          # grey, dashed
col_edge = '#404040'         # borders, as the plot's border
# Palettes whose luminance rises from one end to the other, so that the
# order of the values (and a sign) survives in greyscale; eval one of them.
#   palette_weights  0 .. 1, white to dark blue (weights)
#   palette_signed   -limit .. +limit: dark blue (negative), grey (0),
#                    yellow (positive), as cividis; ends 11:1 apart
palette_weights = "set palette defined (0 '#f7fbff', 0.5 '#6baed6', 1 '#08306b')"
palette_signed = "set palette defined (-1 '#00204c', -0.5 '#414d6b', 0 '#7c7b78', 0.5 '#bcaf6f', 1 '#ffe945')"
