/* fixture: a public header of block a */
