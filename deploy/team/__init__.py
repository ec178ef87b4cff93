"""deploy/run-team's parts, one idea to a module, each readable on one screen:

    common.py       paths, the affinity cookie, `say`, health checks, ports
    nginx.py        nginx's configuration (deploy/nginx-team.conf.in filled in) and --proxy-only
    supervisord.py  supervisord's configuration, its start and stop, its XML-RPC interface
    supervised.py   what supervisord runs for run-team: the lifeline and each replica's delayed start
    logs.py         the programs' logs followed, and supervisord's word for a program that ended
    deployment.py   the team: replicas healthy, then nginx; watched, restarted, stopped

`--proxy-only` (the stack's proxy image) imports only common.py and nginx.py, which need
Python's standard library alone. See docs/architecture.md, "deploy/run-team".
"""
