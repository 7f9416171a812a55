/**
 * The Kubernetes pack: `kubectl delete` in any form (a namespace or a
 * whole kind deletes everything in it), node drains, and Helm releases
 * uninstalled.
 *
 * @module
 */

import type { Pack } from "./pack.ts";
import type { OptionSpec } from "../programs/mod.ts";

/** kubectl options that take a value, before or after the subcommand. */
const KUBECTL_OPTIONS: OptionSpec = {
  short: { n: "value", l: "value", f: "value", o: "value", c: "value" },
  long: {
    namespace: "value",
    context: "value",
    cluster: "value",
    kubeconfig: "value",
    user: "value",
    server: "value",
    selector: "value",
    filename: "value",
    output: "value",
    "field-selector": "value",
    "grace-period": "value",
    timeout: "value",
  },
};

/** The Kubernetes pack. */
export const KUBERNETES_PACK: Pack = {
  id: "kubernetes",
  summary: "kubectl delete (namespaces, --all, whole kinds), kubectl drain, helm uninstall",
  defaultOn: true,
  dryRunsAndHelp: true,
  rules: [
    {
      id: "kubectl-delete",
      commands: ["kubectl", "oc", "k3s", "microk8s.kubectl"],
      path: ["delete"],
      options: KUBECTL_OPTIONS,
      destroys: "deletes cluster resources (a namespace or kind takes everything in it)",
    },
    {
      id: "kubectl-drain",
      commands: ["kubectl", "oc"],
      path: ["drain"],
      options: KUBECTL_OPTIONS,
      destroys: "evicts every pod from a node, deleting their emptyDir data",
    },
    {
      id: "argocd-app-delete",
      commands: ["argocd"],
      path: ["app", /^(delete|rm)$/],
      // Cascading is the default: only `--cascade=false` leaves the resources.
      unless: [{ arg: /^--cascade=(false|0)$/ }],
      destroys: "deletes an application and, cascading, every resource it manages",
    },
    {
      id: "helm-uninstall",
      commands: ["helm"],
      path: [/^(uninstall|delete|del|un)$/],
      options: {
        short: { n: "value" },
        long: { namespace: "value", "kube-context": "value", kubeconfig: "value" },
      },
      destroys: "deletes a release and every resource it created",
    },
  ],
};
