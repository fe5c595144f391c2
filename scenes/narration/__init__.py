"""What the clips say: the voice (Piper, or the lecturer's recordings; ``voice``) and the captions cut from
each beat's sentence to the broadcast standard (``captions``).  Nothing here draws; the kit's base scene
speaks and captions every beat through it."""
