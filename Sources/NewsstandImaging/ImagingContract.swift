// Placeholder until the imaging work lands: see RasterImage, ImageDecoder, TextArt, AsciiArtRenderer.
