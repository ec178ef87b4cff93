"""Board-ready output: the HTML report and the PDF packet, the charts and their sentences, the
comparison tables and CSV export."""
