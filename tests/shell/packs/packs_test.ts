/**
 * Tests of the destructive packs: for every pack a table of destructive
 * forms that must name that pack, and a table of everyday look-alikes that
 * must pass; both through the property that a benign prefix never changes
 * a verdict, and under a bound on the work counted, never timed.
 */

import { loadReadOnly, readOnlyKind } from "../../../src/shell/readonly/mod.ts";
import { assert, assertEquals } from "../../helpers/assert.ts";
import { destructiveHit, newDetectBudget } from "../../../src/shell/destructive/mod.ts";
import { PACKS } from "../../../src/shell/packs/registry.ts";
import { PACK_MANIFEST, selectPacks } from "../../../src/shell/packs/mod.ts";
import { readFromNothing } from "../../helpers/destructive_cases.ts";
import { indexRules } from "../../../src/shell/destructive/mod.ts";
import { SQL_CLIENTS } from "../../../src/shell/packs/core.ts";
import { loadAllParts } from "../../../src/shell/destructive/mod.ts";

// The engine loads its PowerShell, cmd.exe and glob parts on demand; these
// tests read commands of every dialect, so they start with all of them.
await loadAllParts();
// The Bash parser too: the read-only check reads a command that is not plain with it.
await loadReadOnly("bash");

/** Per pack: commands it must find destructive, and look-alikes that must pass. */
const TABLES: Readonly<Record<string, { destructive: string[]; benign: string[] }>> = {
  filesystem: {
    destructive: [
      "find . -name '*.log' -delete",
      "trash-empty",
      "gio trash --empty",
      "cmake -E remove_directory build",
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
      "find . -execdir rm {} \\;",
      "find . -okdir rm {} \\;",
      "find . -exec /bin/rm -f {} +",
      "find . -exec sh -c 'rm -rf \"$1\"' _ {} \\;",
      "rsync -a --delete-before src/ backup/",
      "rsync -a --delete-during src/ backup/",
      "rsync -a --delete-delay src/ backup/",
      "rsync -a --delete-excluded src/ backup/",
      "rsync -a --del src/ backup/",
      "rsync -a --remove-sent-files src/ dst/",
      "truncate --size 0 app.db",
      "truncate -s0 app.db",
      "truncate --reference=/dev/null app.db",
      "yarn dlx rimraf dist",
      "npm exec rimraf dist",
      "npm exec -- rimraf dist",
      "pnpm exec rimraf dist",
      "bun x rimraf dist",
      "yarn rimraf dist",
      "npx trash dist",
      "npx --yes rimraf@5 dist",
      "mke2fs -t ext4 /dev/sdb1",
      "mkswap /dev/sdb2",
      "blkdiscard /dev/nvme0n1",
      "robocopy empty x /MIR",
      "robocopy src dst /e /purge",
      "cmd /c robocopy src dst /mov",
      "fd . --exec-batch sh -c 'rm -rf \"$@\"' _",
      "fd -e log -x sh -c 'rm -rf {}'",
      "Clear-Content notes.txt",
      "crontab -u bob -r",
      "crontab -r",
      "tar --remove-files -cf /tmp/a.tar .",
      "tar -czf out.tgz --remove-files logs",
      "zip -rm /tmp/a.zip .",
      "zip --move a.zip notes.txt",
      "7z a -sdel /tmp/a.7z build",
    ],
    benign: [
      "trash-put notes.txt",
      "gio trash notes.txt",
      "cmake -E make_directory build",
      "tar -cf /tmp/a.tar .",
      "tar -xzf a.tgz",
      "zip -r a.zip src",
      "7z a a.7z build",
      "crontab -l",
      "crontab -e",
      "fd -e log -x wc -l",
      "fd -x sh -c 'wc -l {}'",
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
      "find . -exec echo {} \\;",
      "rsync -avz --progress src/ host:dst/",
      "rsync --help",
      "truncate -s +10M disk.img",
      "truncate -r ref.txt app.db",
      "npm install rimraf del-cli",
      "yarn add rimraf",
      "pnpm add -D rimraf trash",
      "yarn dlx create-react-app x",
      "mke2fs -n /dev/sdb1",
      "robocopy src dst /e",
      "robocopy src dst /mir /l",
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
      "python -c \"import subprocess; subprocess.call('rm -rf x', shell=True)\"",
      "python3.12 -c \"__import__('shutil').rmtree('x')\"",
      "node -p \"require('fs').rmSync('build',{recursive:true})\"",
      "node --print \"require('fs').rmSync('build',{recursive:true})\"",
      "node -e \"require('child_process').spawnSync('rm', ['-rf', 'x'])\"",
      "node -e \"require('child_process').execFileSync('git', ['push', '--force'])\"",
      "deno eval \"new Deno.Command('rm', {args: ['-rf', 'x']}).outputSync()\"",
      "bun --eval \"require('fs').rmSync('x', {recursive: true})\"",
      "perl -MFile::Path -e 'remove_tree(\"x\")'",
      "perl -E 'system(\"rm -rf x\")'",
      "perl -e 'unlink glob \"*\"'",
      "perl -e 'qx{rm -rf x}'",
      "ruby -e '`rm -rf x`'",
      "ruby -e '%x(rm -rf x)'",
      "php -r 'shell_exec(\"rm -rf x\");'",
      'php -r \'array_map("unlink", glob("*"));\'',
      "gawk 'BEGIN { system(\"rm -rf x\") }'",
      "awk '{system(\"rm -rf \" $1)}' list",
      'awk \'BEGIN{print "rm -rf x" | "sh"}\'',
      "echo cm0gLXJmIHgK | base64 -D | sh",
      "echo 'ez -ep k' | tr a-z n-za-m | bash",
      "cat x | xxd -r -p | sh",
      "echo x | base64 -d | perl",
      "echo x | base64 -d | sudo sh",
      "python3 - <<'EOF'\nimport shutil\nshutil.rmtree('x')\nEOF",
      "echo \"require('fs').rmSync('x', {recursive: true})\" | node -",
      "node -e \"require('fs-extra').removeSync('x')\"",
      "Rscript -e 'unlink(\"x\", recursive = TRUE)'",
      "py -3 -c 'import shutil; shutil.rmtree(\"x\")'",
      "npx tsx -e \"require('fs').rmSync('x', {recursive: true})\"",
      "rails runner 'User.delete_all'",
      "echo \"Deno.removeSync('x', {recursive: true})\" | deno run -",
      "bin/rails r 'User.destroy_all'",
      "php artisan tinker --execute='User::truncate()'",
      'python3 -c \'import sqlite3; sqlite3.connect("d").execute("DROP TABLE t")\'',
      "sed 's/x/rm -rf build/e' src/a.py",
      "sed -e '1e rm -rf build' src/a.py",
      "sed -n -e '1e rm -rf build' src/a.py",
      "sed -ne '1e rm -rf build' src/a.py",
      "sed ':a;e rm -rf build' src/a.py",
      "sed '1e' src/a.py",
      "sed -f - src/a.py <<< '1e rm -rf build'",
      "nvim --headless -c '!rm -rf build' -c q",
      "vim -c 'call system(\"rm -rf build\")' -c q",
      "vim +'!rm -rf build' +q",
      "vim -c 'silent !rm -rf build' -c q",
      "vim -c 'exe \"!rm -rf build\"' -c q",
      "vim -c 'set nu | !rm -rf build'",
      "vim -c 'terminal rm -rf build'",
      "nvim --headless -c 'lua os.execute(\"rm -rf build\")' -c q",
      "make --eval=$'x:\\n\\trm -rf build' x",
      "make --eval='x: ; rm -rf build' x",
      "make --eval='$(shell rm -rf build)'",
      "make -f - x <<'EOF'\nx:\n\t@rm -rf build\nEOF",
      "echo '* * * * * rm -rf ~/x' | crontab -",
      "crontab <<< '@reboot rm -rf build'",
    ],
    benign: [
      "python3 - <<'EOF'\nprint(1)\nEOF",
      "rails runner 'puts User.count'",
      "rails routes",
      "Rscript -e 'unlink(\"x.csv\")'",
      "python -c 'print(1)'",
      'python3 -c "import os; print(os.getcwd())"',
      "node -e \"console.log('rm -rf x')\"",
      "node -e \"require('child_process').execSync('ls')\"",
      "perl -pe 's/a/b/' file",
      "awk '{print $1}' file",
      "echo aGVsbG8K | base64 -d",
      "echo hello | rev",
      "python3 script.py",
      "node -p '1 + 1'",
      "node -e \"require('child_process').spawnSync('ls', ['-la'])\"",
      "deno eval 'console.log(1)'",
      "bun -e 'console.log(1)'",
      "perl -e 'print 1'",
      "perl -pi -e 's/a/b/' f",
      "ruby -e 'puts 1'",
      "ruby -e '%x(ls -la)'",
      "php -r 'echo 1;'",
      "awk 'BEGIN{system(\"ls\")}'",
      "python3 -c \"import subprocess; print(subprocess.check_output(['git', 'status']))\"",
      "echo hi | tr a-z A-Z",
      "echo aGk= | base64 -d > out.txt",
      "sed -i 's/a/b/g' src/a.py",
      "sed -n '/x/p' src/a.py",
      "sed '$!N;s/\\n/ /' src/a.py",
      "sed ':a;N;$!ba;s/\\n/ /g' src/a.py",
      "sed -E 's/(a|b)+/x/g' src/a.py",
      "sed -n '5,10p' src/a.py",
      "sed 's#a/b#c/d#g' src/a.py",
      "sed '/^$/N;/\\n$/D' src/a.py",
      "sed '1i\\# header' src/a.py",
      "sed '$a\\footer' src/a.py",
      "sed 'y/abc/xyz/' src/a.py",
      "sed 's/\\(a\\)/\\1/' src/a.py",
      "sed '0,/re/s//x/' src/a.py",
      "sed '/start/,/end/{/x/d}' src/a.py",
      "sed 's/x/y/2' src/a.py",
      "sed '/x/!d' src/a.py",
      "sed -n '/a/{p;q}' src/a.py",
      "sed 's/.*/\\L&/' src/a.py",
      "sed -e :a -e '$!N;ba' src/a.py",
      "sed -i.bak -e 's/a/b/' src/a.py",
      "sed -n '$=' src/a.py",
      "sed 's/a/b/w out.txt' src/a.py",
      "sed = src/a.py",
      "sed '10q' src/a.py",
      "sed -n 'l' src/a.py",
      "sed '/x/r other.txt' src/a.py",
      "sed 's/\\s\\+$//' src/a.py",
      'sed "s/\'/\\"/g" src/a.py',
      "sed 's/a/b/;s/c/d/' src/a.py",
      "sed '/^#/d; /^$/d' src/a.py",
      "sed -z 's/\\n/,/g' src/a.py",
      "vim -c 'wq' src/a.py",
      "vim +10 src/a.py",
      "vim -c '%s/a/b/g | wq' src/a.py",
      "make test",
      "make -j4 build",
      "crontab -l",
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
      "docker system prune",
      "podman system prune -a -f",
      "docker volume prune -f",
      "podman volume prune -f",
      "docker rm -fv web",
      "podman rm -f -v web",
      "podman image prune -a",
      "docker compose down --volumes",
      "podman compose down -v",
      "docker-compose down -v",
      "podman-compose down -v",
      "docker compose -f x.yml down -v",
      "docker compose down -t 5 -v",
      "docker --context prod system prune -af",
      "podman system reset --force",
      "podman system reset",
    ],
    benign: [
      "podman system df",
      "podman system info",
      "docker ps -a",
      "docker images",
      "docker rm web",
      "docker compose down",
      "docker volume ls",
      "docker image prune",
      "docker system df",
      "podman ps",
      "docker-compose down",
      "docker compose -f x.yml down",
      "docker compose up -d",
      "docker system prune --help",
      "docker compose down -v --dry-run",
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
      "kubectl delete ns prod",
      "kubectl delete pods --all -A",
      "kubectl delete pvc --all -n prod",
      "kubectl delete all --all",
      "kubectl --context prod delete ns prod",
      "helm -n prod uninstall api",
      "argocd app delete my-app --cascade",
      "argocd app delete my-app",
    ],
    benign: [
      "argocd app delete my-app --cascade=false",
      "argocd app get my-app",
      "kubectl get pods",
      "kubectl describe pod api",
      "kubectl delete pod api --dry-run=client",
      "kubectl logs api",
      "helm list",
      "helm status api",
      "kubectl get pods -A",
      "kubectl delete pod api --dry-run=server",
      "kubectl delete --help",
      "kubectl apply -f x.yaml",
      "helm uninstall api --dry-run",
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
      "terraform -chdir=infra destroy",
      "terraform apply -destroy -auto-approve",
      "tofu apply -destroy",
      "pulumi down -y",
      "cdk destroy --all --force",
      "npx aws-cdk destroy",
      "pnpm cdk destroy",
      "terragrunt run-all destroy",
      "sls remove --stage prod",
      "serverless remove",
      "tofu apply -auto-approve -replace=aws_instance.web",
      "terraform apply -replace=aws_instance.web",
    ],
    benign: [
      "terraform plan -replace=aws_instance.web",
      "terraform apply",
      "serverless deploy",
      "terraform plan",
      "terraform apply",
      "terraform destroy --help",
      "tofu plan -destroy",
      "pulumi preview",
      "cdk diff",
      "terraform -help",
      "terraform destroy -h",
      "terraform apply -help",
      "tofu plan",
      "pulumi up",
      "cdk deploy",
      "pnpm exec cdk diff",
      "sam deploy",
      "sam delete --help",
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
      "aws s3 rm --recursive s3://bucket",
      "aws --profile prod s3 rm s3://b --recursive",
      "aws dynamodb delete-table --table-name x",
      "aws s3api delete-bucket --bucket x",
      "aws cloudformation delete-stack --stack-name x",
      "aws ecr batch-delete-image --repository-name x --image-ids imageTag=y",
      "aws kms schedule-key-deletion --key-id x",
      "aws s3 sync . s3://b --delete",
      "gcloud sql instances delete db",
      "gcloud storage rm -r gs://b/x",
      "gcloud storage buckets delete gs://b",
      "gcloud storage rsync src gs://b --delete-unmatched-destination-objects",
      "gsutil -m rm -r gs://b",
      "gsutil rb gs://b",
      "gsutil rsync -d src gs://b",
      "az group delete -n prod --yes",
      "az keyvault purge -n x",
      "az storage blob delete-batch -s c",
      "firebase functions:delete api",
      "firebase firestore:delete -r /users",
      "rclone sync ./site remote:site",
      "rclone delete remote:bucket",
      "rclone purge remote:bucket/dir",
    ],
    benign: [
      "rclone copy ./site remote:site",
      "rclone sync -n ./site remote:site",
      "rclone ls remote:",
      "firebase deploy",
      "aws s3 ls s3://bucket",
      "aws s3 cp file s3://bucket/",
      "aws s3 rm s3://bucket/x --recursive --dryrun",
      "aws ec2 describe-instances",
      "gcloud compute instances list",
      "gsutil ls gs://bucket",
      "az group list",
      "aws s3 cp s3://b/x .",
      "aws s3 sync . s3://b",
      "aws ec2 terminate-instances --instance-ids i-1 --dry-run",
      "aws rds delete-db-instance help",
      "aws kms describe-key --key-id x",
      "gcloud compute instances describe vm",
      "gsutil cp x gs://b",
      "gsutil rsync src gs://b",
      "gsutil rsync -n -d src gs://b",
      "gcloud storage rsync src gs://b",
      "az group show -n x",
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
      "gh repo delete",
      "gh release delete v1 --cleanup-tag -y",
      "gh -R o/r release delete v1",
      "gh gist delete 1234",
      "glab release delete v1",
      "vercel rm my-app",
      "flyctl apps destroy my-app",
      "fly volumes destroy vol_x",
      "heroku pg:reset DATABASE",
      "glab variable delete X",
      "gh variable delete X -R o/r",
      "gh secret delete API_KEY",
    ],
    benign: [
      "gh secret list",
      "gh secret set API_KEY",
      "gh repo view owner/repo",
      "gh release list",
      "gh api repos/o/r",
      "vercel ls",
      "fly status",
      "heroku apps",
      "gh repo list",
      "gh release view v1",
      "gh gist list",
      "glab repo view",
      "vercel deploy",
      "fly apps list",
      "gh repo delete --help",
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
      "echo 'UPDATE users SET x = 1;' | psql",
      "mysqladmin -u root -f drop shop",
      "printf 'FLUSHDB\\n' | redis-cli -n 1",
      "redis-cli <<X\nFLUSHALL\nX",
      "psql -c 'UPDATE t SET a = 1 WHERE id = 5 OR true'",
      "psql -c 'UPDATE t SET a = 1 WHERE 1=1'",
      "psql -v x=DROP -c ':x TABLE t'",
      "psql -c \"COPY t TO PROGRAM 'rm -rf x'\"",
      "mysql -e '\\! rm -rf x'",
      "sqlite3 d.db '.shell rm -rf x'",
      "mongorestore --drop dump/",
      "echo 'DROP TABLE t' | python3 manage.py dbshell",
      "python manage.py dbshell -- -c 'DROP TABLE t'",
      "rails db <<< 'UPDATE users SET admin = true'",
      "echo 'DROP TABLE t' | php artisan db",
    ],
    benign: [
      "valkey-cli get k",
      "mongorestore dump/",
      "echo 'SELECT 1' | python3 manage.py dbshell",
      "php artisan db:seed",
      "rails dbconsole",
      "sqlite3 d.db '.shell ls'",
      "psql -c \"COPY t TO PROGRAM 'gzip > t.gz'\"",
      "psql -v x=1 -c 'SELECT :x'",
      "psql -c 'UPDATE t SET a = 1 WHERE 1=1 AND id = 5'",
      'psql -c "UPDATE users SET admin = true WHERE id = 2"',
      "psql -c 'SELECT * FROM users'",
      "mysqladmin status",
      "echo PING | redis-cli",
      "mongosh --eval 'db.users.find()'",
      "psql -U delete -c 'select 1'",
      "mysql -e 'UPDATE users SET x = 1 WHERE id = 2'",
      "sqlite3 app.db 'select * from users'",
      "mysqladmin create shop",
      "redis-cli GET x",
      "mongosh --eval 'db.users.deleteOne({_id: 1})'",
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
      "pnpm prisma migrate reset",
      "pnpm exec prisma migrate reset",
      "yarn prisma migrate reset --force",
      "npm exec -- prisma migrate reset",
      "pnpm --filter api exec prisma migrate reset",
      "bunx prisma migrate reset",
      "bun x prisma db push --force-reset",
      "npx prisma db push --force-reset --accept-data-loss",
      "rails db:reset",
      "bundle exec rails db:drop",
      "bundle exec rake db:drop",
      "bundle exec bin/rails db:reset",
      "./manage.py flush",
      "django-admin flush",
      "./artisan db:wipe",
      "npx supabase db reset",
      "pnpm supabase db reset",
      "dotnet-ef database drop",
      "dotnet ef database drop --force",
      "alembic downgrade -1",
      "alembic downgrade base",
    ],
    benign: [
      "alembic upgrade head",
      "alembic downgrade base --sql",
      "dotnet ef database update",
      "prisma migrate dev",
      "prisma db push",
      "rails db:migrate",
      "python manage.py migrate",
      "php artisan migrate",
      "supabase db diff",
      "npx prisma migrate dev",
      "pnpm prisma generate",
      "npm exec prisma migrate dev",
      "bundle exec rails server",
      "bundle exec rake db:migrate",
      "rails server",
      "supabase start",
      "prisma migrate reset --help",
      "rails db:drop --help",
    ],
  },
  "version-control": {
    destructive: [
      "hg purge",
      "hg purge --all",
      "hg clean",
      "hg -R repo purge",
      "chg purge",
      "hg revert --all",
      "hg revert -a -C",
      "hg update --clean",
      "hg up -C tip",
      "hg checkout -C -r 5",
      "hg strip 42",
      "svn revert -R .",
      "svn revert --recursive src",
      "svn revert --depth infinity .",
      "svn cleanup --remove-unversioned",
      "svn cleanup --remove-ignored .",
    ],
    benign: [
      "hg purge --print",
      "hg purge -p",
      "hg status",
      "hg revert file.txt",
      "hg revert --all --dry-run",
      "hg update tip",
      "hg log -r strip",
      "svn revert file.txt",
      "svn cleanup",
      "svn status",
      "hg purge --help",
    ],
  },
  "git-history": {
    destructive: [
      "git gc --prune=now",
      "git prune",
      "git worktree remove --force ../wt",
      "git update-ref refs/heads/main HEAD~3",
      "git gc --prune=all",
      "git gc --aggressive --prune=now",
      "git -C repo gc --prune=now",
      "git worktree remove -f ../wt",
      "git worktree prune --expire=now",
      "git read-tree --reset -u HEAD",
      "git read-tree -u --reset HEAD~1",
      "git checkout-index -a -f",
      "git checkout-index --force --all",
    ],
    benign: [
      "git gc",
      "git prune --dry-run",
      "git worktree remove ../wt",
      "git worktree list",
      "git update-ref refs/heads/x HEAD",
      "git gc --auto",
      "git prune -n",
      "git reflog",
      "git stash list",
      "git stash pop",
      "git gc --help",
      "git read-tree HEAD",
      "git read-tree -m -u HEAD",
      "git checkout-index -a --prefix=export/",
    ],
  },
  publish: {
    destructive: [
      "npm publish",
      "npm publish --access public",
      "pnpm -r publish",
      "yarn npm publish",
      "bun publish",
      "deno publish",
      "npx jsr publish",
      "npm unpublish pkg@1.0.0",
      "npm deprecate pkg@1 'use 2'",
      "cargo publish",
      "cargo yank --version 1.0.0",
      "twine upload dist/*",
      "python3 -m twine upload dist/*",
      "poetry publish --build",
      "uv publish",
      "gem push app-1.0.gem",
      "gem yank app -v 1.0",
      "dotnet nuget push app.nupkg",
      "pod trunk push App.podspec",
      "helm push chart.tgz oci://r",
      "mvn clean deploy",
      "./gradlew publish",
      "dart pub publish",
      "mix hex.publish",
      "docker push registry/app:latest",
      "docker image push app:1",
      "podman push app",
      "docker buildx build --push -t app .",
      "gh release create v1.2.3",
      "goreleaser release --clean",
      "npx semantic-release",
      "git push --tags",
      "git push origin v1.2.3",
      "git push --follow-tags",
      "git push origin refs/tags/v2",
      "vsce publish",
      "npx changeset publish",
    ],
    benign: [
      "npm publish --dry-run",
      "npm pack",
      "npm publish --help",
      "cargo publish --dry-run",
      "cargo publish -n",
      "cargo package",
      "cargo yank --undo --version 1.0.0",
      "twine check dist/*",
      "poetry build",
      "gem build app.gemspec",
      "docker build -t app .",
      "docker pull app",
      "docker buildx build -t app .",
      "gh release list",
      "gh release view v1",
      "goreleaser release --snapshot",
      "goreleaser build",
      "./gradlew publishToMavenLocal",
      "mvn package",
      "dart pub publish --dry-run",
      "git push origin main",
      "git push -n --tags",
      "git tag v1.2.3",
      "deno publish --dry-run",
    ],
  },
};

/** The rules active when `pack` is switched on (an opt-in pack is off by default). */
const rulesWith = (pack: string) => indexRules(selectPacks([pack]).active);

const PREFIXES = ["ls; ", "echo hi\n", "FOO=1 true; ", "cd /tmp && "];

for (const [pack, table] of Object.entries(TABLES)) {
  const rules = rulesWith(pack);
  Deno.test(`[destructive-bash-gate] the ${pack} pack: destructive forms name it, look-alikes pass`, () => {
    const missed = table.destructive.filter((c) =>
      destructiveHit("bash", c, [], rules)?.pack !== pack
    );
    const flagged = table.benign.filter((c) => destructiveHit("bash", c, [], rules) !== null);
    // The shell gate skips the packs for read-only introspection, so no destructive form may be one.
    const readOnly = table.destructive.filter((c) => readOnlyKind("bash", c) !== null);
    assertEquals({ missed, flagged, readOnly }, { missed: [], flagged: [], readOnly: [] });
  });

  Deno.test(`[destructive-bash-gate] the ${pack} pack: a benign prefix never changes a verdict`, () => {
    const changed: string[] = [];
    for (const prefix of PREFIXES) {
      for (const c of table.destructive) {
        if (destructiveHit("bash", prefix + c, [], rules) === null) changed.push(prefix + c);
      }
      for (const c of table.benign) {
        if (destructiveHit("bash", prefix + c, [], rules) !== null) changed.push(prefix + c);
      }
    }
    assertEquals(changed, []);
  });

  Deno.test(`[destructive-bash-gate] the ${pack} pack: work stays within a bound of the command length`, () => {
    for (const c of [...table.destructive, ...table.benign]) {
      const command = `${"echo a; ".repeat(200)}${c}`;
      const budget = newDetectBudget();
      const start = { ...budget };
      destructiveHit("bash", command, [], rules, budget);
      const chars = start.chars - budget.chars;
      const analyses = start.left - budget.left;
      assert(chars <= 8 * command.length, `${c}: ${chars} characters for ${command.length}`);
      assert(analyses <= 16, `${c}: ${analyses} analyses`);
    }
  });
  Deno.test(`[lazy-loading] the ${pack} pack: read with no pack loaded on demand, every form gets the fully loaded answer for the same work`, async () => {
    const { differ } = await readFromNothing(
      "bash",
      [...table.destructive, ...table.benign],
      selectPacks([pack]).active,
    );
    assertEquals(differ, []);
  });
}

Deno.test("[lazy-loading] every pack's row names the programs its rules apply to, and loads that pack", async () => {
  const rows = await Promise.all(PACK_MANIFEST.map(async (row) => {
    const pack = row.pack ?? await row.load!();
    return {
      id: row.id,
      defaultOn: row.defaultOn,
      required: row.required,
      // Each name once, in any order: a row may name a set the pack shares with another.
      commands: row.commands.length === new Set(row.commands).size
        ? [...row.commands].sort()
        : row.commands,
      pack,
    };
  }));
  const names = (p: (typeof PACKS)[number]) =>
    [...new Set(p.rules.flatMap((r) => [r, ...(r.forms ?? [])]).flatMap((r) => r.commands))].sort();
  assertEquals(
    rows,
    PACKS.map((p) => ({
      id: p.id,
      defaultOn: p.defaultOn,
      required: p.required,
      commands: names(p),
      pack: p,
    })),
  );
  // Only the core pack is loaded with the engine, which reads its tables directly.
  assertEquals(PACK_MANIFEST.filter((r) => r.pack !== undefined).map((r) => r.id), ["core"]);
});

Deno.test("[destructive-bash-gate] every pack but the core has a destructive and a benign table", () => {
  assertEquals(
    PACKS.filter((p) => p.id !== "core").map((p) => p.id).sort(),
    Object.keys(TABLES).sort(),
  );
});

Deno.test("[destructive-bash-gate] a pack switched off stops finding its forms; the core cannot be switched off", () => {
  const selection = selectPacks(["-kubernetes", "-core", "-nosuch"]);
  const rules = indexRules(selection.active);
  assertEquals(destructiveHit("bash", "kubectl delete namespace prod", [], rules), null);
  assertEquals(destructiveHit("bash", "rm -rf x", [], rules)?.rule, "rm-recursive");
  assertEquals(selection.warnings, [
    "the core pack cannot be switched off",
    'unknown destructive pack "nosuch" ignored',
  ]);
  const back = selectPacks(["-kubernetes", "+kubernetes"]);
  assertEquals(
    destructiveHit("bash", "kubectl delete ns x", [], indexRules(back.active))?.pack,
    "kubernetes",
  );
});

Deno.test("[destructive-bash-gate] the opt-in publish pack is off by default and names itself once on", () => {
  assertEquals(PACKS.filter((p) => !p.defaultOn).map((p) => p.id), ["publish"]);
  assertEquals(destructiveHit("bash", "npm publish", []), null);
  assertEquals(destructiveHit("bash", "git push --tags", []), null);
  assertEquals(destructiveHit("bash", "npm publish", [], rulesWith("publish")), {
    pack: "publish",
    rule: "npm-publish",
    destroys: "publishes a version to a registry; it cannot be replaced under the same number",
  });
  // Switched on, it adds to the default packs and takes none away.
  assertEquals(destructiveHit("bash", "rm -rf x", [], rulesWith("publish"))?.pack, "core");
  assertEquals(destructiveHit("bash", "git push -f", [], rulesWith("publish"))?.rule, "git-push");
});

Deno.test("[destructive-bash-gate] the hit names the pack, the rule and what it destroys", () => {
  assertEquals(destructiveHit("bash", "rm -rf build", []), {
    pack: "core",
    rule: "rm-recursive",
    destroys: "deletes a directory tree and every file below it",
  });
  assertEquals(destructiveHit("bash", "git reset --hard", [])?.rule, "git-reset");
  assertEquals(
    destructiveHit("powershell", "Remove-Item -Recurse x", [])?.rule,
    "remove-item-recurse",
  );
});

Deno.test("[destructive-bash-gate] every SQL client: UPDATE and DELETE without WHERE are denied, with WHERE they pass", () => {
  const verdicts = [...SQL_CLIENTS].map((client) => {
    const pack = (sql: string) => destructiveHit("bash", `echo '${sql}' | ${client}`, [])?.pack;
    return {
      client,
      update: pack("UPDATE t SET a = 1;"),
      // The core reads every DELETE as destructive, with or without WHERE.
      delete: pack("DELETE FROM t;"),
      bounded: pack("UPDATE t SET a = 1 WHERE id = 2;"),
      select: pack("SELECT a FROM t;"),
    };
  });
  assertEquals(
    verdicts,
    [...SQL_CLIENTS].map((client) => ({
      client,
      update: "databases",
      delete: "core",
      bounded: undefined,
      select: undefined,
    })),
  );
  // The same statements given as arguments, as each client family takes them.
  for (
    const c of [
      "psql -c 'DELETE FROM users'",
      "mysql -e 'DELETE FROM users'",
      "mariadb -e 'DELETE FROM users'",
      "sqlite3 app.db 'DELETE FROM users'",
      "duckdb x.db 'DELETE FROM t'",
      "sqlcmd -Q 'DELETE FROM users'",
    ]
  ) {
    assertEquals(destructiveHit("bash", c, [])?.rule, "sql-drop-delete", c);
    const update = c.replace(/DELETE FROM (\w+)/, "UPDATE $1 SET a = 1");
    assertEquals(destructiveHit("bash", update, [])?.rule, "sql-without-where", update);
  }
});

Deno.test("[destructive-bash-gate] a rule id is declared once: by one rule of one pack, its other spellings as forms", () => {
  const ids = PACKS.flatMap((p) => p.rules.map((r) => r.id));
  assertEquals(ids.filter((id, i) => ids.indexOf(id) !== i), []);
});
