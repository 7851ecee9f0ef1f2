"""judge: a rules-judge assistant and reference browser for V:TES and VTM Rivals."""

__version__ = "0.1.0"
