/*
 * xml.h - bounded XML reader on expat, producing prc's JSON document model.
 *
 * Trust: the input is hostile (pom.xml, *.csproj, packages.config from the
 * target); this runs only inside the sandboxed content worker.
 *
 * Policy (docs/parsers-xml-shell-archive.md):
 *  - every DOCTYPE is refused (xml-doctype), so no entity can be declared
 *    and none is ever expanded; parameter entity parsing is off and the
 *    external entity handler refuses, as a second and third layer;
 *  - the encodings expat decodes itself: UTF-8 (a UTF-8 BOM is allowed),
 *    US-ASCII and ISO-8859-1 by their declaration, UTF-16 after a byte
 *    order mark (checked for unpaired surrogates first: xml-invalid-utf16);
 *    the document is always UTF-8.  Any other declared or detected encoding
 *    is xml-encoding;
 *  - namespaces are processed, so attributes with the same expanded name
 *    are an error, as the namespace rules say;
 *  - depth, element + text node count, attributes per element, bytes per
 *    name / attribute value / text node are capped, and expat's own
 *    allocations are capped at a multiple of the input.
 *
 * Document shape: the root element as
 *   {"name": "p:local", "ns": "uri", "attrs": {"k": "v", ...}, "children": [...]}
 * where "name" is the qualified name as written, "ns" is present only when
 * the element is in a namespace, "attrs" holds every attribute (qualified
 * name as written, namespace declarations included as "xmlns" / "xmlns:p")
 * and "children" holds child elements (objects) and text (strings) in
 * document order; "attrs" and "children" are left out when empty.
 * Adjacent character data and CDATA sections are merged into one string;
 * text that is only XML whitespace is dropped unless
 * PRC_XML_KEEP_WHITESPACE.  Comments and processing instructions are dropped.
 */
#ifndef PRC_XML_H
#define PRC_XML_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "base/limits.h"

enum {
        PRC_XML_KEEP_WHITESPACE = 1u << 0,      /* keep whitespace-only text nodes */
};

enum {
        /* Real manifests use a handful of attributes per element; 256 is far above any. */
        PRC_XML_ATTRS_MAX = 256,
        /* expat's own allocations: at most this many times the input, plus the floor below. */
        PRC_XML_MEM_FACTOR = 16,
        PRC_XML_MEM_FLOOR = 4u << 20,
        /*
         * The JSON tree: estimated heap bytes (jansson's objects, arrays and
         * strings, measured on glibc) capped at this many times the input
         * plus the floor, so a flood of tiny elements is refused (nodes-limit)
         * long before it costs gigabytes.  Real manifests need under 20x and
         * are far below the floor.
         */
        PRC_XML_TREE_FACTOR = 32,
        PRC_XML_TREE_FLOOR = 16u << 20,
        PRC_XML_COST_ELEMENT = 520,     /* object + "name" string + children array + attrs object */
        PRC_XML_COST_ATTR = 120,        /* one key/value pair and its string */
        PRC_XML_COST_TEXT = 80,         /* one string plus its slot in the list */
};

/*
 * Parse p[0..n) as one XML document.  Returns the root element (new
 * reference, transfers) or NULL with err set: input-too-large, nul-byte,
 * invalid-utf8, xml-encoding, xml-invalid-utf16, xml-doctype, xml-entity, xml-syntax,
 * xml-attrs-limit, depth-limit (lim->depth_max), nodes-limit
 * (lim->nodes_max elements and text nodes, or the tree budget above), scalar-limit (lim->scalar_max
 * bytes in one name, attribute value or text node), out-of-memory.  On
 * error err->off, err->line and err->col (1-based) locate the cause.
 * Unknown flag bits are a usage error (err class usage).
 */
json_t *prc_xml_parse(const uint8_t *p, size_t n, const prc_limits *lim, unsigned flags,
                      prc_err *err) PRC_MUST_CHECK;

#endif
