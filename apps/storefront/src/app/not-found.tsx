import Link from 'next/link';

export default function NotFound() {
  return (
    <main className="narrow">
      <h1>Niet gevonden</h1>
      <p>Deze pagina bestaat niet (meer).</p>
      <Link href="/nl">Naar de webshop</Link>
    </main>
  );
}
