import { notFound, redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { listCategories } from '@lib/data/catalog';
import { tenantFeatures } from '@lib/data/features';
import { checkAccess } from '@lib/data/gatekeeper';
import { runtimeEnv } from '@lib/env';
import { isLang, t } from '@lib/i18n';
import { shopRequest } from '@lib/tenant';
import { CategoryTree } from '@modules/layout/category-tree';
import { ShopHeader } from '@modules/layout/shop-header';

export const dynamic = 'force-dynamic';

/**
 * The shop behind the gatekeeper: with NEXT_PUBLIC_GATEKEEPER_ENABLED=true, a visitor whose
 * address has no access goes to the access page (/toegang, always public). Each page checks its
 * own feature (a tenant without `products` still reaches the account), the layout only hides the
 * category tree.
 */
export default async function MainLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ lang: string }>;
}) {
  const { lang } = await params;
  if (!isLang(lang)) notFound();
  if (runtimeEnv.gatekeeperEnabled()) {
    const access = await checkAccess();
    if (!access.has_access) redirect(`/toegang?lang=${lang}`);
  }
  const [{ tenantId }, features] = await Promise.all([shopRequest(), tenantFeatures()]);
  const catalog = features.hasFeature('products');
  const categories = catalog ? await listCategories(lang) : [];
  const tenantName = tenantId.charAt(0).toUpperCase() + tenantId.slice(1);
  return (
    <>
      <ShopHeader lang={lang} tenantName={tenantName} />
      <div className="shop-body">
        {catalog && (
          <CategoryTree
            nodes={categories}
            lang={lang}
            title={t(lang).categories}
            allLabel={t(lang).allProducts}
          />
        )}
        <main>{children}</main>
      </div>
    </>
  );
}
