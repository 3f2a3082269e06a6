"""Bad, odd and generated input: a coded problem that changes nothing, never a 5xx."""
