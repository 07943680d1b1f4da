"""What players read: neutral views, their plain-text rendering, the message catalogues."""
