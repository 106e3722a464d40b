// NewsstandCore
