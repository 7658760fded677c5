// Markup as Go's golang.org/x/net/html Render writes it (what k6's Selection.html() and Element's
// innerHTML print through goquery): void elements as `<br/>`, text and attribute values escaped with
// html.EscapeString's five (& ' < > ") and \r, raw-text elements (script, style...) unescaped,
// everything else (a no-break space, é) as is.
import type { AnyNode } from 'domhandler';

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);
const RAW_TEXT = new Set([
  'iframe',
  'noembed',
  'noframes',
  'noscript',
  'plaintext',
  'script',
  'style',
  'xmp',
]);
const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  "'": '&#39;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&#34;',
  '\r': '&#13;',
};

export function goEscape(s: string): string {
  return s.replace(/[&'<>"\r]/g, (c) => ESCAPES[c]!);
}

function render(n: AnyNode, rawParent: boolean, out: string[]): void {
  switch (n.type) {
    case 'text':
      out.push(rawParent ? n.data : goEscape(n.data));
      return;
    case 'comment':
      out.push(`<!--${n.data}-->`);
      return;
    case 'directive':
      out.push(`<${n.data}>`);
      return;
    case 'tag':
    case 'script':
    case 'style': {
      out.push(`<${n.name}`);
      for (const [k, v] of Object.entries(n.attribs)) out.push(` ${k}="${goEscape(v)}"`);
      if (VOID.has(n.name)) {
        out.push('/>');
        return;
      }
      out.push('>');
      for (const c of n.children) render(c, RAW_TEXT.has(n.name), out);
      out.push(`</${n.name}>`);
      return;
    }
    default:
      if ('children' in n) for (const c of n.children as AnyNode[]) render(c, false, out);
  }
}

/** The markup of a node's children (Selection.html(), Element.innerHTML()). */
export function goInnerHtml(n: AnyNode): string {
  const out: string[] = [];
  if ('children' in n) {
    const raw = (n.type === 'tag' || n.type === 'script' || n.type === 'style') && RAW_TEXT.has(n.name);
    for (const c of n.children as AnyNode[]) render(c, raw, out);
  }
  return out.join('');
}
