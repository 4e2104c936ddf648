# style.gp - what every figure script shares: terminal, font, language.
# Set on the command line (gnuplot -e "..." figures/style.gp figures/NAME.gp):
#   lang  'en' or 'es'     the edition; tr(en, es) picks the label
#   term  'svg' or 'pdf'   svg for the HTML book, pdfcairo for the PDF book
#   out   the file to write
#   data  the data file written by the figure's data program
# Defined here: tr(en, es); big, the font of numbers printed in cells.
if (!exists("lang")) lang = 'en'
if (!exists("term")) term = 'svg'
if (lang ne 'en' && lang ne 'es') { print "style.gp: lang must be 'en' or 'es', got '".lang."'"; exit status 1 }
tr(en, es) = (lang eq 'es') ? es : en

# 640x360 pixels for the HTML page; 5 x 2.8 inches with 9 pt text for the
# PDF book, which includes it at 0.8\textwidth
if (term eq 'svg') {
    set terminal svg size 640,360 enhanced font 'DejaVu Sans,12' background rgb 'white'
    big = ',14'
} else {
    if (term eq 'pdf') {
        set terminal pdfcairo size 5in,2.8in enhanced font 'DejaVu Sans,9'
        big = ',10'
    } else {
        print "style.gp: term must be 'svg' or 'pdf', got '".term."'"; exit status 1
    }
}
set output out
set encoding utf8
set border linecolor rgb '#404040'
