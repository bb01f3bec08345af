/**
 * Every mail the product sends has a plain body and an HTML one, both naming the product: mail
 * clients show the HTML, and the plain one is what filters and screen readers fall back to.
 */
export interface MailBodies {
  text: string;
  html: string;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * `lines` are paragraphs' lines; an empty line separates paragraphs. `link` (the app's address)
 * ends both bodies, after the product's name.
 */
export function composeMail(options: { product: string; greeting?: string; lines: string[]; link?: string }): MailBodies {
  const { product, greeting, lines, link } = options;
  const footer = link ? `${product}: ${link}` : product;
  const text = [...(greeting ? [greeting, ''] : []), ...lines, '', footer].join('\n');

  const paragraphs: string[][] = [[]];
  for (const line of lines) {
    if (line === '') paragraphs.push([]);
    else paragraphs.at(-1)!.push(line);
  }
  const body = paragraphs
    .filter((paragraph) => paragraph.length > 0)
    .map((paragraph) => `<p>${paragraph.map(escapeHtml).join('<br>')}</p>`)
    .join('\n');
  const name = escapeHtml(product);
  const footerHtml = link ? `<a href="${escapeHtml(link)}">${name}</a>` : name;
  const html = [
    '<!doctype html>',
    `<html><head><meta charset="utf-8"><title>${name}</title></head>`,
    '<body style="font-family: Arial, Helvetica, sans-serif; font-size: 15px; line-height: 1.5; color: #1f1f1f;">',
    `<h1 style="font-size: 20px; margin: 0 0 16px;">${name}</h1>`,
    ...(greeting ? [`<p>${escapeHtml(greeting)}</p>`] : []),
    body,
    `<p style="color: #666; font-size: 13px; margin-top: 24px;">${footerHtml}</p>`,
    '</body></html>',
  ].join('\n');
  return { text, html };
}
