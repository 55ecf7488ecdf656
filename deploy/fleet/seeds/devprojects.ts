import { resolve } from 'node:path';
import { GitRepositories } from '@aplt/service-devprojects/git';
import { commit, createProject } from '@aplt/service-devprojects/projects';
import type { SeedContext } from './index';

/** The demo dev project: a tiny static site whose build needs nothing from the network. */
export const demoDevProject = {
  tenant: 'acme',
  name: 'Demo landing page',
  description:
    'A small static site built by `npm run build` (node build.mjs, no dependencies): rebuild it and open its preview.',
} as const;

const buildScript = `// Builds the site: copies site/ to dist/ and stamps the build into the page. No dependencies.
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

rmSync('dist', { recursive: true, force: true });
cpSync('site', 'dist', { recursive: true });
const stamp = \`Built \${new Date().toISOString()} with Node \${process.version}\`;
const page = readFileSync('dist/index.html', 'utf8').replace('{{build}}', stamp);
writeFileSync('dist/index.html', page);
console.log(stamp);
console.log('wrote dist/index.html, dist/style.css, dist/about/index.html');
`;

const indexHtml = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Acme - promotional products</title>
    <link rel="icon" href="favicon.svg" />
    <link rel="stylesheet" href="style.css" />
  </head>
  <body>
    <header><strong>Acme</strong> <a href="about/">About</a></header>
    <main>
      <h1>Your logo on everything</h1>
      <p>Pens, mugs and bags printed with your logo, delivered in ten working days.</p>
      <p class="build">{{build}}</p>
    </main>
  </body>
</html>
`;

const aboutHtml = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>About Acme</title>
    <link rel="icon" href="../favicon.svg" />
    <link rel="stylesheet" href="../style.css" />
  </head>
  <body>
    <header><a href="../">Acme</a></header>
    <main><h1>About us</h1><p>A dev project preview: this page is a static file of the build.</p></main>
  </body>
</html>
`;

const styleCss = `body { font-family: system-ui, sans-serif; margin: 0; color: #1f2937; }
header { display: flex; gap: 1rem; padding: 1rem 2rem; background: #0f766e; color: white; }
header a { color: white; }
main { max-width: 40rem; margin: 3rem auto; padding: 0 1rem; }
h1 { color: #0f766e; }
.build { color: #6b7280; font-size: 0.875rem; }
`;

const faviconSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#0f766e"/></svg>
`;

const packageJson = `${JSON.stringify(
  { name: 'acme-landing', private: true, version: '0.1.0', scripts: { build: 'node build.mjs' } },
  null,
  2,
)}\n`;

/**
 * One dev project of the demo tenant whose branch holds a buildable site (package.json with
 * `scripts.build`, build.mjs, site/), so that a rebuild shows a preview at
 * `http://<code>.preview.acme.localhost:8080/`. Made once (found again by its name); the
 * repository is the devprojects service's (DEVPROJECTS_GIT_DIR, the same default).
 */
export async function seedDevProjects(ctx: SeedContext): Promise<void> {
  const tenant = await ctx.registry.get(demoDevProject.tenant);
  if (!tenant) return;
  const db = ctx.databases.aplt(tenant);
  const git = new GitRepositories(resolve(ctx.env.DEVPROJECTS_GIT_DIR ?? '.cache/devprojects'), {
    name: ctx.env.DEVPROJECTS_BOT_NAME ?? 'APLT Dev Bot',
    email: ctx.env.DEVPROJECTS_BOT_EMAIL ?? 'devbot@aplt.localhost',
  });
  await git.ensureRoot();
  const pctx = { db, git: git.for(tenant.id), tenant };
  let project = (await db
    .selectFrom('aplt_dev_projects')
    .select(['id', 'project_code'])
    .where('name', '=', demoDevProject.name)
    .executeTakeFirst()) as { id: number; project_code: string } | undefined;
  let made = false;
  if (!project) {
    project = await createProject(pctx, {
      name: demoDevProject.name,
      description: demoDevProject.description,
      project_type: 'feature',
      created_by: 'seed',
    });
    made = true;
  }
  const head = await pctx.git.resolve(`dev-project/${project.project_code}`);
  const hasBuild = head ? (await pctx.git.browseAll(head)).includes('package.json') : false;
  if (head && !hasBuild) {
    await commit(pctx, {
      project_id: project.id,
      message: 'Landing page: static site with its build (npm run build -> dist/)',
      changed_by: 'seed',
      files: [
        { file_path: 'package.json', content: packageJson },
        { file_path: 'build.mjs', content: buildScript },
        { file_path: 'site/index.html', content: indexHtml },
        { file_path: 'site/about/index.html', content: aboutHtml },
        { file_path: 'site/style.css', content: styleCss },
        { file_path: 'site/favicon.svg', content: faviconSvg },
      ],
    });
  }
  ctx.log(`devprojects: demo project ${project.project_code} ${made ? 'created' : 'kept'}`);
}

/** The banner's line for the demo dev project's preview (read from the database, seeded or not). */
export async function devProjectsNotes(ctx: SeedContext): Promise<void> {
  const tenant = await ctx.registry.get(demoDevProject.tenant);
  if (!tenant) return;
  const project = (await ctx.databases
    .aplt(tenant)
    .selectFrom('aplt_dev_projects')
    .select(['id', 'project_code'])
    .where('name', '=', demoDevProject.name)
    .executeTakeFirst()) as { id: number; project_code: string } | undefined;
  if (!project) return;
  const port = ctx.proxyPort === 80 ? '' : `:${ctx.proxyPort}`;
  ctx.notes.push(
    `dev project preview: rebuild ${project.project_code} (POST http://acme.${ctx.domain}${port}/admin/dev-projects/rebuild {"project_id": ${project.id}, "tenant": "acme"} with an acme admin token), then open http://${project.project_code.toLowerCase()}.preview.acme.${ctx.domain}${port}/`,
  );
}
