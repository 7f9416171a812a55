/**
 * Tests of the destructive packs: for every pack a table of destructive
 * forms that must name that pack, and a table of everyday look-alikes that
 * must pass; both through the property that a benign prefix never changes
 * a verdict, and under a bound on the work counted, never timed.
 */

import { assert, assertEquals } from "../helpers/assert.ts";
import { destructiveHit, newDetectBudget } from "../../src/shell/destructive.ts";
import { indexRules, PACKS, selectPacks } from "../../src/shell/packs/registry.ts";

/** Per pack: commands it must find destructive, and look-alikes that must pass. */
const TABLES: Readonly<Record<string, { destructive: string[]; benign: string[] }>> = {
  filesystem: {
    destructive: [
      "find . -name '*.log' -delete",
      "find /tmp/x -delete",
      "find . -exec rm {} \\;",
      "find . -type f -execdir rm -f {} +",
      "find . -ok rm {} \\;",
      "rsync -a --delete src/ backup/",
      "rsync -av --delete-after src/ backup/",
      "rsync -a --remove-source-files src/ dst/",
      "truncate -s 0 app.db",
      "truncate --size=0 app.log",
      "npx rimraf dist",
      "bunx rimraf node_modules",
      "pnpm dlx rimraf dist",
      "npx del-cli 'dist/**'",
    ],
    benign: [
      "find . -name '*.ts'",
      "find . -type f -print",
      "find . -exec grep -l foo {} \\;",
      "rsync -a src/ dst/",
      "rsync -an --delete src/ dst/",
      "rsync -a --delete --dry-run src/ dst/",
      "truncate -s 10M disk.img",
      "npx tsc --noEmit",
      "pnpm dlx create-vite app",
      "npx rimraf --help",
    ],
  },
  interpreters: {
    destructive: [
      "python3 -c \"import shutil; shutil.rmtree('build')\"",
      "python -c 'import os; os.system(\"rm -rf build\")'",
      'python3 -c \'import subprocess; subprocess.run(["rm", "-rf", "x"])\'',
      "node -e \"require('fs').rmSync('build',{recursive:true})\"",
      "node --eval \"require('child_process').execSync('git reset --hard')\"",
      "deno eval \"Deno.removeSync('x', { recursive: true })\"",
      "bun -e \"require('fs').rmSync('x', {recursive: true})\"",
      "perl -e 'use File::Path; rmtree(\"x\")'",
      "perl -e 'system(\"rm -rf x\")'",
      'ruby -e \'require "fileutils"; FileUtils.rm_rf("x")\'',
      "php -r 'system(\"rm -rf x\");'",
      "awk 'BEGIN{system(\"rm -rf x\")}'",
      "echo cm0gLXJmIHgK | base64 -d | sh",
      "echo 'x fr- mr' | rev | bash",
      "cat payload | base64 --decode | python3",
    ],
    benign: [
      "python -c 'print(1)'",
      'python3 -c "import os; print(os.getcwd())"',
      "node -e \"console.log('rm -rf x')\"",
      "node -e \"require('child_process').execSync('ls')\"",
      "perl -pe 's/a/b/' file",
      "awk '{print $1}' file",
      "echo aGVsbG8K | base64 -d",
      "echo hello | rev",
      "python3 script.py",
    ],
  },
  containers: {
    destructive: [
      "docker system prune -a -f",
      "docker volume prune -f",
      "docker volume rm data",
      "podman volume rm data",
      "docker rm -f -v web",
      "docker image prune -a",
      "docker compose down -v",
      "docker-compose down --volumes",
    ],
    benign: [
      "docker ps -a",
      "docker images",
      "docker rm web",
      "docker compose down",
      "docker volume ls",
      "docker image prune",
      "docker system df",
    ],
  },
  kubernetes: {
    destructive: [
      "kubectl delete namespace prod",
      "kubectl delete pods --all",
      "kubectl -n prod delete deployment api",
      "kubectl delete -f manifests/",
      "kubectl drain node-1 --ignore-daemonsets",
      "helm uninstall api",
      "helm delete api",
    ],
    benign: [
      "kubectl get pods",
      "kubectl describe pod api",
      "kubectl delete pod api --dry-run=client",
      "kubectl logs api",
      "helm list",
      "helm status api",
    ],
  },
  iac: {
    destructive: [
      "terraform destroy -auto-approve",
      "terraform apply -destroy",
      "tofu destroy",
      "pulumi destroy --yes",
      "cdk destroy --force",
      "npx cdk destroy",
      "sam delete --no-prompts",
    ],
    benign: [
      "terraform plan",
      "terraform apply",
      "terraform destroy --help",
      "tofu plan -destroy",
      "pulumi preview",
      "cdk diff",
    ],
  },
  cloud: {
    destructive: [
      "aws s3 rm s3://bucket --recursive",
      "aws s3 rb s3://bucket --force",
      "aws --region us-east-1 ec2 terminate-instances --instance-ids i-1",
      "aws rds delete-db-instance --db-instance-identifier prod",
      "gcloud compute instances delete vm-1",
      "gcloud projects delete my-project",
      "gsutil rm -r gs://bucket/x",
      "az group delete --name prod",
      "az storage account delete -n acct",
    ],
    benign: [
      "aws s3 ls s3://bucket",
      "aws s3 cp file s3://bucket/",
      "aws s3 rm s3://bucket/x --recursive --dryrun",
      "aws ec2 describe-instances",
      "gcloud compute instances list",
      "gsutil ls gs://bucket",
      "az group list",
    ],
  },
  hosting: {
    destructive: [
      "gh repo delete owner/repo --yes",
      "gh release delete v1.0",
      "gh api -X DELETE repos/o/r",
      "glab repo delete group/project",
      "vercel remove my-app --yes",
      "fly apps destroy my-app",
      "flyctl destroy my-app",
      "heroku apps:destroy my-app",
    ],
    benign: [
      "gh repo view owner/repo",
      "gh release list",
      "gh api repos/o/r",
      "vercel ls",
      "fly status",
      "heroku apps",
    ],
  },
  databases: {
    destructive: [
      "psql -c 'UPDATE users SET admin = true'",
      "mysql -e 'update accounts set balance = 0'",
      "sqlite3 app.db 'update sessions set user = null'",
      "mysqladmin drop shop",
      "echo FLUSHALL | redis-cli",
      "redis-cli <<< FLUSHDB",
      "mongosh --eval \"db['dropDatabase']()\"",
      "mongosh --eval 'db.runCommand({drop: \"users\"})'",
    ],
    benign: [
      'psql -c "UPDATE users SET admin = true WHERE id = 2"',
      "psql -c 'SELECT * FROM users'",
      "mysqladmin status",
      "echo PING | redis-cli",
      "mongosh --eval 'db.users.find()'",
      "psql -U delete -c 'select 1'",
    ],
  },
  frameworks: {
    destructive: [
      "prisma migrate reset --force",
      "npx prisma migrate reset",
      "prisma db push --force-reset",
      "rails db:drop",
      "bin/rails db:reset",
      "rake db:drop",
      "python manage.py flush --noinput",
      "php artisan migrate:fresh",
      "php artisan db:wipe",
      "supabase db reset",
    ],
    benign: [
      "prisma migrate dev",
      "prisma db push",
      "rails db:migrate",
      "python manage.py migrate",
      "php artisan migrate",
      "supabase db diff",
    ],
  },
  "git-history": {
    destructive: [
      "git gc --prune=now",
      "git prune",
      "git worktree remove --force ../wt",
      "git update-ref refs/heads/main HEAD~3",
    ],
    benign: [
      "git gc",
      "git prune --dry-run",
      "git worktree remove ../wt",
      "git worktree list",
      "git update-ref refs/heads/x HEAD",
    ],
  },
};

const PREFIXES = ["ls; ", "echo hi\n", "FOO=1 true; ", "cd /tmp && "];

for (const [pack, table] of Object.entries(TABLES)) {
  Deno.test(`[destructive-bash-gate] the ${pack} pack: destructive forms name it, look-alikes pass`, () => {
    const missed = table.destructive.filter((c) => destructiveHit("Bash", c, [])?.pack !== pack);
    const flagged = table.benign.filter((c) => destructiveHit("Bash", c, []) !== null);
    assertEquals({ missed, flagged }, { missed: [], flagged: [] });
  });

  Deno.test(`[destructive-bash-gate] the ${pack} pack: a benign prefix never changes a verdict`, () => {
    const changed: string[] = [];
    for (const prefix of PREFIXES) {
      for (const c of table.destructive) {
        if (destructiveHit("Bash", prefix + c, []) === null) changed.push(prefix + c);
      }
      for (const c of table.benign) {
        if (destructiveHit("Bash", prefix + c, []) !== null) changed.push(prefix + c);
      }
    }
    assertEquals(changed, []);
  });

  Deno.test(`[destructive-bash-gate] the ${pack} pack: work stays within a bound of the command length`, () => {
    for (const c of [...table.destructive, ...table.benign]) {
      const command = `${"echo a; ".repeat(200)}${c}`;
      const budget = newDetectBudget();
      const start = { ...budget };
      destructiveHit("Bash", command, [], undefined, budget);
      const chars = start.chars - budget.chars;
      const analyses = start.left - budget.left;
      assert(chars <= 8 * command.length, `${c}: ${chars} characters for ${command.length}`);
      assert(analyses <= 16, `${c}: ${analyses} analyses`);
    }
  });
}

Deno.test("[destructive-bash-gate] every pack but the core has a destructive and a benign table", () => {
  assertEquals(
    PACKS.filter((p) => p.id !== "core").map((p) => p.id).sort(),
    Object.keys(TABLES).sort(),
  );
});

Deno.test("[destructive-bash-gate] a pack switched off stops finding its forms; the core cannot be switched off", () => {
  const selection = selectPacks(["-kubernetes", "-core", "-nosuch"]);
  const rules = indexRules(selection.active);
  assertEquals(destructiveHit("Bash", "kubectl delete namespace prod", [], rules), null);
  assertEquals(destructiveHit("Bash", "rm -rf x", [], rules)?.rule, "rm-recursive");
  assertEquals(selection.warnings, [
    "the core pack cannot be switched off",
    'unknown destructive pack "nosuch" ignored',
  ]);
  const back = selectPacks(["-kubernetes", "+kubernetes"]);
  assertEquals(
    destructiveHit("Bash", "kubectl delete ns x", [], indexRules(back.active))?.pack,
    "kubernetes",
  );
});

Deno.test("[destructive-bash-gate] the hit names the pack, the rule and what it destroys", () => {
  assertEquals(destructiveHit("Bash", "rm -rf build", []), {
    pack: "core",
    rule: "rm-recursive",
    destroys: "deletes a directory tree and every file below it",
  });
  assertEquals(destructiveHit("Bash", "git reset --hard", [])?.rule, "git-reset");
  assertEquals(
    destructiveHit("PowerShell", "Remove-Item -Recurse x", [])?.rule,
    "remove-item-recurse",
  );
});
