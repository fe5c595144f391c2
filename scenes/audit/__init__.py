"""The audit: what is visible at the end of every beat and what is wrong with it (``beats``: layout,
lecture language, bindings), and WCAG contrast of every text against what is drawn behind it
(``contrast``).  Nothing here draws; ``clips audit`` and a render's kept audit run it."""
