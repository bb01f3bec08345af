import { composeMail } from '../src/mail';

describe('mail bodies', () => {
  it('gives every mail a plain and an HTML body naming the product, with paragraphs and the link', () => {
    const { text, html } = composeMail({ product: 'CrewSwap', greeting: 'Hello Amy,', lines: ['Your code is 123456', '', 'It is valid for 24 hours.'], link: 'https://crewswap.example.com' });
    expect(text).toBe('Hello Amy,\n\nYour code is 123456\n\nIt is valid for 24 hours.\n\nCrewSwap: https://crewswap.example.com');
    expect(html).toContain('<title>CrewSwap</title>');
    expect(html).toContain('<p>Your code is 123456</p>\n<p>It is valid for 24 hours.</p>');
    expect(html).toContain('<a href="https://crewswap.example.com">CrewSwap</a>');
  });

  it('escapes what a person typed, so a name cannot add markup to the HTML body', () => {
    const { html } = composeMail({ product: 'Crew<Swap>', lines: ['<script>alert("x")</script> & more'] });
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more');
    expect(html).not.toContain('<script>');
    expect(html).toContain('<h1 style="font-size: 20px; margin: 0 0 16px;">Crew&lt;Swap&gt;</h1>');
  });
});
