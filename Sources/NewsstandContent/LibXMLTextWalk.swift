import CLibXML2

/// The text below a libxml2 node, in document order, walked without recursion (a page may nest 100,000 deep):
/// for flattening a subtree too deep to keep as elements.
enum LibXMLTextWalk {
    /// Calls `body` with each text and CDATA node's content below `root`.
    static func forEachText(below root: xmlNodePtr, _ body: (String) -> Void) {
        var node = root.pointee.children
        while let current = node {
            if current.pointee.type == XML_TEXT_NODE || current.pointee.type == XML_CDATA_SECTION_NODE,
               let content = current.pointee.content {
                body(String(cString: content))
            }
            if current.pointee.type == XML_ELEMENT_NODE, let child = current.pointee.children {
                node = child
                continue
            }
            // Next in document order: a sibling, else the nearest ancestor's sibling below `root`.
            var climb: xmlNodePtr? = current
            node = nil
            while let step = climb, step != root {
                if let sibling = step.pointee.next {
                    node = sibling
                    break
                }
                climb = step.pointee.parent
            }
        }
    }
}
