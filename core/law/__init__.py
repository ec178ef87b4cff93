"""The law: the regulation's text, its fields, money and readings, the caps stated once, and
the engines that run them (one application, the batch, the breakpoints, a portfolio).
Imports nothing of core.store, core.report or core.cli."""
