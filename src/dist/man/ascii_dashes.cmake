# cmake -DPAGE=usbsat.1 -P ascii_dashes.cmake: the em dash of `usbsat --help` as the roff glyph \(em, so the page
# renders in any locale (raw UTF-8 shows as ??? under LANG=C).
file(READ "${PAGE}" page)
string(REPLACE "—" "\\(em" page "${page}")
file(WRITE "${PAGE}" "${page}")
