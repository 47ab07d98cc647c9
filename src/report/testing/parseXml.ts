/** A strict XML parser for the tests of the JUnit report and of the files the CLI writes. */

/** An element of a parsed XML document. */
export interface XmlElement {
  readonly name: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly children: readonly XmlElement[];
  /** The element's own text (not its children's), entities decoded. */
  readonly text: string;
}

const NAME = /^[A-Za-z_][\w.:-]*/;

function decodeEntities(raw: string, at: number): string {
  if (raw.includes('<')) throw new Error(`unescaped "<" near offset ${at}`);
  return raw.replace(/&([^;&\s]*);?/g, (whole, name: string) => {
    if (!whole.endsWith(';')) throw new Error(`unterminated entity "${whole}" near offset ${at}`);
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (named[name] !== undefined) return named[name];
    const num = /^#(x[0-9a-fA-F]+|\d+)$/.exec(name);
    if (!num) throw new Error(`unknown entity "&${name};" near offset ${at}`);
    return String.fromCodePoint(num[1]!.startsWith('x') ? parseInt(num[1]!.slice(1), 16) : Number(num[1]));
  });
}

/**
 * A strict little XML parser for tests (no DTDs, CDATA or namespaces): throws on anything
 * that is not well-formed, such as an unescaped `<` or `&`, a mismatched tag or a repeated attribute.
 */
export function parseXml(xml: string): XmlElement {
  let i = 0;
  const fail = (why: string): never => {
    throw new Error(`${why} at offset ${i}`);
  };
  const skipSpace = (): void => {
    while (i < xml.length && /\s/.test(xml[i]!)) i++;
  };
  if (xml.startsWith('<?xml')) {
    const end = xml.indexOf('?>');
    if (end < 0) fail('unterminated declaration');
    i = end + 2;
  }
  const element = (): XmlElement => {
    if (xml[i] !== '<') fail('expected "<"');
    i++;
    const name = NAME.exec(xml.slice(i))?.[0] ?? fail('expected an element name');
    i += name.length;
    const attrs: Record<string, string> = {};
    for (;;) {
      const before = i;
      skipSpace();
      if (xml.startsWith('/>', i)) {
        i += 2;
        return { name, attrs, children: [], text: '' };
      }
      if (xml[i] === '>') {
        i++;
        break;
      }
      if (i === before) fail('expected whitespace before an attribute');
      const attr = NAME.exec(xml.slice(i))?.[0] ?? fail('expected an attribute name');
      i += attr.length;
      if (xml[i] !== '=') fail(`expected "=" after ${attr}`);
      const quote = xml[i + 1];
      if (quote !== '"' && quote !== "'") fail('expected a quoted value');
      const end = xml.indexOf(quote!, i + 2);
      if (end < 0) fail('unterminated attribute value');
      if (Object.hasOwn(attrs, attr)) fail(`repeated attribute ${attr}`);
      attrs[attr] = decodeEntities(xml.slice(i + 2, end), i);
      i = end + 1;
    }
    const children: XmlElement[] = [];
    let text = '';
    for (;;) {
      const lt = xml.indexOf('<', i);
      if (lt < 0) fail(`unclosed <${name}>`);
      text += decodeEntities(xml.slice(i, lt), i);
      i = lt;
      if (xml.startsWith('</', i)) {
        i += 2;
        const closing = NAME.exec(xml.slice(i))?.[0];
        if (closing !== name) fail(`</${closing ?? ''}> closes <${name}>`);
        i += name.length;
        skipSpace();
        if (xml[i] !== '>') fail('expected ">"');
        i++;
        return { name, attrs, children, text };
      }
      children.push(element());
    }
  };
  skipSpace();
  const root = element();
  skipSpace();
  if (i !== xml.length) fail('content after the root element');
  return root;
}

/** Every element named `name` under `root`, depth first. */
export const xmlElements = (root: XmlElement, name: string): XmlElement[] => [
  ...(root.name === name ? [root] : []),
  ...root.children.flatMap((c) => xmlElements(c, name)),
];
