/* fixture: a private header of block a */
