// Placeholder until the content work lands: ArchiveExtractor, EPUBReader, XHTMLDocumentParser.
