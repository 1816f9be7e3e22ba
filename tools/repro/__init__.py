"""Library of tools/reproduce: paper experiments rerun and compared."""
